import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';

const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * TypeBox's compiler, strict for bodies and converting query strings, except that it would turn
 * `limit=1.5` into 1: an integer parameter must be written as one (docs/protocol.md §1 Conventions).
 *
 * Each validator is compiled on its route's first request, not at start-up: an idle relay then
 * holds only the validators of the routes it has served (compiling all of them took a fifth of
 * its start-up and a few MiB of generated code that most relays never run).
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = (route) => {
  let compiled: ReturnType<FastifySchemaCompiler<TSchema>> | null = null;
  return (value: unknown) => (compiled ??= compileNow(route))(value);
};

const compileNow: FastifySchemaCompiler<TSchema> = (route) => {
  const validate = TypeBoxValidatorCompiler(route);
  if (route.httpPart !== 'querystring' && route.httpPart !== 'params') return validate;
  const props = (route.schema as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const integers = Object.keys(props).filter((k) => props[k].type === 'integer');
  if (integers.length === 0) return validate;
  return (value: unknown) => {
    const input = (value ?? {}) as Record<string, unknown>;
    for (const key of integers) {
      const raw = input[key];
      if (typeof raw === 'string' && !INTEGER_TEXT.test(raw)) {
        const error: FastifySchemaValidationError[] = [
          { keyword: 'type', instancePath: `/${key}`, schemaPath: '', params: {}, message: 'must be an integer' },
        ];
        return { error };
      }
    }
    return validate(value);
  };
};
