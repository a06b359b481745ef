// Ranking math. Reddit's hot rank depends only on the score and the creation time, so it is
// stored in an indexed column and changed in the vote transaction: listing hot costs the same
// as listing new. Rising depends on the clock and is computed over a bounded recent set.

/** Reddit's epoch offset (2005-12-08), kept so our values match Reddit's. */
const REDDIT_EPOCH_S = 1134028003;

/** Reddit's hot: sign(s)·log10(max(|s|,1)) + (t − epoch)/45000, rounded to 7 decimals. */
export function hotRank(score: number, createdAtMs: number): number {
  const order = Math.log10(Math.max(Math.abs(score), 1));
  const sign = score > 0 ? 1 : score < 0 ? -1 : 0;
  const seconds = createdAtMs / 1000 - REDDIT_EPOCH_S;
  return Math.round((sign * order + seconds / 45000) * 1e7) / 1e7;
}

/** Reddit's controversial: many votes, evenly split, rank highest; unanimous items rank 0. */
export function controversy(ups: number, downs: number): number {
  if (ups <= 0 || downs <= 0) return 0;
  return (ups + downs) ** (Math.min(ups, downs) / Math.max(ups, downs));
}

/** Moltbook's rising: (score + 1) / (age in hours + 2)^1.5. */
export function rising(score: number, createdAtMs: number, nowMs: number): number {
  const hours = Math.max(0, nowMs - createdAtMs) / 3_600_000;
  return (score + 1) / (hours + 2) ** 1.5;
}
