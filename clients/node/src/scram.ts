// ScramClient: the client's side of one SCRAM-SHA-256 login (RFC 5802,
// RFC 7677; docs/wire-protocol.md, "Authentication"), with node:crypto:
// clientFirst(), then clientFinal() for the server-first message, then
// verifyServerFinal(). One object per login attempt; not shared.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/** The mechanism's name as LoginRequest.saslMechanism carries it. */
export const SCRAM_MECHANISM = 'SCRAM-SHA-256';
const MIN_ITERATIONS = 4096;

function hmac(key: Buffer, data: string | Buffer): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    if (part.length < 2 || part[1] !== '=' || out.has(part[0]!)) {
      throw new Error('the server sent a malformed SCRAM step');
    }
    out.set(part[0]!, part.slice(2));
  }
  return out;
}

export class ScramClient {
  private clientFirstBare = '';
  private expectedSignature: Buffer | undefined;

  constructor(private readonly user: string, private readonly password: string,
    private readonly nonce: string = randomBytes(24).toString('base64')) {}

  /** The client-first message: "n,,n=user,r=nonce". */
  clientFirst(): string {
    this.clientFirstBare = `n=${this.user.replace(/=/g, '=3D').replace(/,/g, '=2C')},r=${this.nonce}`;
    return `n,,${this.clientFirstBare}`;
  }

  /** The client-final message answering serverFirst; throws Error naming what is wrong with it. */
  clientFinal(serverFirst: string): string {
    const a = attributes(serverFirst);
    const nonce = a.get('r') ?? '';
    if (!nonce.startsWith(this.nonce) || nonce.length === this.nonce.length) {
      throw new Error("the server's nonce does not extend the client's");
    }
    const salt = Buffer.from(a.get('s') ?? '', 'base64');
    const iterations = Number(a.get('i'));
    if (!Number.isInteger(iterations) || iterations < MIN_ITERATIONS) {
      throw new Error(`the server asks for ${a.get('i')} iterations, fewer than ${MIN_ITERATIONS}`);
    }
    const salted = pbkdf2Sync(Buffer.from(this.password, 'utf8'), salt, iterations, 32, 'sha256');
    const clientKey = hmac(salted, 'Client Key');
    const withoutProof = `c=biws,r=${nonce}`;
    const authMessage = `${this.clientFirstBare},${serverFirst},${withoutProof}`;
    this.expectedSignature = hmac(hmac(salted, 'Server Key'), authMessage);
    const signature = hmac(createHash('sha256').update(clientKey).digest(), authMessage);
    const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!));
    return `${withoutProof},p=${proof.toString('base64')}`;
  }

  /** True iff serverFinal carries the signature only a server holding the user's ServerKey can make. */
  verifyServerFinal(serverFinal: string): boolean {
    if (!this.expectedSignature || !serverFinal.startsWith('v=')) return false;
    const signature = Buffer.from(serverFinal.slice(2), 'base64');
    return signature.length === this.expectedSignature.length && timingSafeEqual(signature, this.expectedSignature);
  }
}
