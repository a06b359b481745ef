// The 6-digit code mailed to the person an agent names at sign-up. Only its digest is stored,
// salted with the organization id (a million codes are quick to try against a bare digest, so
// the attempt limit, not the digest, is what guards it; the salt keeps equal codes apart).
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** A code lives 24 hours and takes 10 tries (AgentMail's verify endpoint). */
const OTP_TTL_MS = 24 * 3_600_000;
export const OTP_MAX_ATTEMPTS = 10;

export const newOtp = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const otpDigest = (orgId: string, code: string): string =>
  createHash('sha256').update(`${orgId}:${code}`).digest('hex');

export function otpMatches(orgId: string, code: string, digest: string): boolean {
  const a = Buffer.from(otpDigest(orgId, code), 'hex');
  const b = Buffer.from(digest, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const otpExpired = (issuedAt: string | null, nowMs: number): boolean =>
  !issuedAt || nowMs - Date.parse(issuedAt) >= OTP_TTL_MS;
