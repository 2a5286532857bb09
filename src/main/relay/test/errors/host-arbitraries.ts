/** The parts the Host-header fuzz builds its headers from: ports, names and bytes, good and odd. */
import fc from 'fast-check';

/** Any byte but CR and LF (which end a header, so they test Node's parser rather than ours). */
export const anyByte = fc
  .integer({ min: 0, max: 255 })
  .filter((b) => b !== 10 && b !== 13)
  .map((b) => String.fromCharCode(b));
export const port = fc.oneof(
  fc.integer({ min: 0, max: 70_000 }).map(String),
  fc.stringMatching(/^[0-9]{1,30}$/),
  fc.constantFrom('', '0', '080', '65535', '65536', '99999', '-1', '1e3', ' 80', '80 '),
);
export const name = fc.oneof(
  fc.constantFrom(
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.1',
    '127.0.0.01',
    '[::1]',
    '[::1',
    '::1',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    'relay.example.com',
    'evil.example',
    'localhost.',
    'xn--e1afmkfd.example',
    'a..b',
    '',
  ),
  fc.stringMatching(/^[a-z0-9.-]{1,20}$/),
  fc.string({ unit: anyByte, maxLength: 20 }),
);
