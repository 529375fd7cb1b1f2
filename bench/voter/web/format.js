// Number formats and contestant colors shared by the page's parts.

const PALETTE = ["#2f6fdb", "#e0672b", "#2a9d5b", "#c23b6e", "#8a5cd1", "#c9a227", "#1f9bb0", "#7a6f5a"];

/** A contestant's color: contestants 1..8 get distinct colors, then the palette repeats. */
export function colorOf(number) {
  const index = ((Number(number) - 1) % PALETTE.length + PALETTE.length) % PALETTE.length;
  return PALETTE[Number.isFinite(index) ? index : 0];
}

/** 1234567 → "1,234,567". */
export function formatCount(value) {
  return Math.round(value).toLocaleString("en-US");
}

/** 999 → "999", 1234 → "1.2k", 12345 → "12k", 1234567 → "1.2M", 12345678 → "12M". */
export function formatCompact(value) {
  if (value >= 1e6) {
    return `${(value / 1e6).toFixed(value >= 1e7 ? 0 : 1)}M`;
  }
  if (value >= 1e3) {
    return `${(value / 1e3).toFixed(value >= 1e4 ? 0 : 1)}k`;
  }
  return String(Math.round(value));
}

/** 0.12345 → "12.3%". */
export function formatShare(fraction) {
  return `${(fraction * 100).toFixed(1)}%`;
}
