/** A refusal the HTTP layer answers as `{ error, code }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, code = 'bad-request') => new HttpError(400, message, code);
export const unauthorized = (message = 'missing or invalid credential', code = 'unauthorized') =>
  new HttpError(401, message, code);
export const forbidden = (message: string, code = 'forbidden') => new HttpError(403, message, code);
export const notFound = (message: string, code = 'not-found') => new HttpError(404, message, code);
export const tooLarge = (message: string, code = 'too-large') => new HttpError(413, message, code);
export const badHost = () =>
  badRequest('the Host header must be a plain host name or address with an optional port (1-65535)', 'bad-host');
export const hostNotAllowed = () =>
  new HttpError(421, 'this relay does not answer for that host name', 'host-not-allowed');
