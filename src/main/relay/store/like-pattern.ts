/** `%` and `_` in a directory search must match themselves: the LIKE pattern of both backends. */
export const likeFragment = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
