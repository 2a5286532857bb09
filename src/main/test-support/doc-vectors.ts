/**
 * The test vectors published in docs/vectors/ (walked through in docs/test-vectors.md). Tests
 * read the docs' own files, never a copy, so the code and what an outside implementation checks
 * itself against cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));

export interface SealVector {
  name: string;
  recipientPrivateKey: string;
  recipientDeviceKey: string;
  ephemeralPrivateKey: string;
  ephemeralPublicKey: string;
  sharedSecret: string;
  salt: string;
  prk: string;
  key: string;
  nonceHex: string;
  frameHex: string;
  ciphertextHex: string;
  nonce: string;
  ciphertext: string;
}

export interface SealVectors {
  info: string;
  infoHex: string;
  vectors: SealVector[];
}

export interface SafetySideVector {
  address: string;
  deviceKeys: string[];
  sortedKeys: string[];
  inputHex: string;
  firstHash: string;
  finalHash: string;
  chunks: Array<{ bytes: string; value: number; digits: string }>;
  half: string;
}

export interface SafetyNumberVector {
  label: string;
  iterations: number;
  sides: [SafetySideVector, SafetySideVector];
  safetyNumber: string;
  grouped: string;
}

export interface ReleaseSignatureVector {
  recipientPrivateKey: `0x${string}`;
  recipient: `0x${string}`;
  sender: `0x${string}`;
  chainId: number;
  escrow: `0x${string}`;
  ref: `0x${string}`;
  stakeIdPreimage: `0x${string}`;
  stakeId: `0x${string}`;
  typedData: {
    domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
    types: { Release: Array<{ name: string; type: string }> };
    primaryType: 'Release';
    message: { id: `0x${string}` };
  };
  domainTypeHash: `0x${string}`;
  releaseTypeHash: `0x${string}`;
  nameHash: `0x${string}`;
  versionHash: `0x${string}`;
  domainSeparatorPreimage: `0x${string}`;
  domainSeparator: `0x${string}`;
  structHashPreimage: `0x${string}`;
  structHash: `0x${string}`;
  digestPreimage: `0x${string}`;
  digest: `0x${string}`;
  signature: `0x${string}`;
  r: `0x${string}`;
  s: `0x${string}`;
  v: number;
}

function read<T>(name: string): T {
  return JSON.parse(readFileSync(`${DOCS_DIR}vectors/${name}`, 'utf8')) as T;
}

export const sealVectors = (): SealVectors => read('seal-vectors.json');
export const safetyNumberVector = (): SafetyNumberVector => read('safety-number.json');
export const releaseSignatureVector = (): ReleaseSignatureVector => read('release-signature.json');
