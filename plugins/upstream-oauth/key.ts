import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { calculateJwkThumbprint, SignJWT, type JWK } from 'jose';
import { UPSTREAM_OAUTH_ERROR_CODES } from './errors.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../../core/plugin/auth.js';
import { HubError } from '../../core/plugin/index.js';

interface Loaded {
  privateKey: KeyObject;
  publicJwk: JWK;
}

/**
 * The hub's outbound signing key for `private_key_jwt` (RFC 7523): Ed25519, kept at
 * `<DATA_PATH>/upstream-key.pem` readable by the owner only, created at first need. It
 * signs nothing else (the hub's own tokens use other keys).
 */
export class UpstreamKey {
  #loaded: Promise<Loaded> | undefined;

  constructor(readonly file: string) {}

  /** The public half as a JWK set, for a metadata document or a registration. */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.#load()).publicJwk] };
  }

  /** A short-lived client assertion for `clientId`, addressed to the authorization server. */
  async assertion(clientId: string, audience: string): Promise<string> {
    const { privateKey, publicJwk } = await this.#load();
    return new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', ...(publicJwk.kid ? { kid: publicJwk.kid } : {}) })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(audience)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(privateKey);
  }

  #load(): Promise<Loaded> {
    this.#loaded ??= this.#readOrCreate().catch((error: unknown) => {
      this.#loaded = undefined;
      throw error;
    });
    return this.#loaded;
  }

  async #readOrCreate(): Promise<Loaded> {
    let pem: string;
    try {
      pem = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
      await makePrivateFolder(dirname(this.file));
      try {
        await writeFile(this.file, pem, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      } catch (writeError) {
        // Another process created it first: use that one.
        if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
        pem = await readFile(this.file, 'utf8');
      }
    }
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.KEY_INVALID, `${this.file} is not an Ed25519 key`);
    const exported = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(exported);
    return { privateKey, publicJwk: { ...exported, kid, alg: 'EdDSA', use: 'sig' } };
  }
}
