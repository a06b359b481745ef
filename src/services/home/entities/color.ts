// Colour conversions lights need to fill hs_color, rgb_color and xy_color from whichever
// descriptor a call used (HA fills all three). Standard formulas: HSV <-> RGB, sRGB -> CIE xy
// with the Wide RGB D65 matrix, and the usual black-body approximation for kelvin -> RGB.

const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;
const clamp255 = (n: number) => Math.max(0, Math.min(255, Math.round(n)));

export function hsToRgb(h: number, s: number): [number, number, number] {
  const sat = s / 100;
  const c = sat;
  const hh = (h % 360) / 60;
  const x = c * (1 - Math.abs((hh % 2) - 1));
  const [r1, g1, b1] =
    hh < 1 ? [c, x, 0] : hh < 2 ? [x, c, 0] : hh < 3 ? [0, c, x] : hh < 4 ? [0, x, c] : hh < 5 ? [x, 0, c] : [c, 0, x];
  const m = 1 - c;
  return [clamp255((r1 + m) * 255), clamp255((g1 + m) * 255), clamp255((b1 + m) * 255)];
}

export function rgbToHs(r: number, g: number, b: number): [number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d !== 0) {
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  h = (h * 60 + 360) % 360;
  const s = max === 0 ? 0 : (d / max) * 100;
  return [round(h, 3), round(s, 3)];
}

export function rgbToXy(r: number, g: number, b: number): [number, number] {
  const lin = (c: number) => {
    const v = c / 255;
    return v > 0.04045 ? ((v + 0.055) / 1.055) ** 2.4 : v / 12.92;
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const X = R * 0.664511 + G * 0.154324 + B * 0.162028;
  const Y = R * 0.283881 + G * 0.668433 + B * 0.047685;
  const Z = R * 0.000088 + G * 0.07231 + B * 0.986039;
  const sum = X + Y + Z;
  if (sum === 0) return [0, 0];
  return [round(X / sum, 3), round(Y / sum, 3)];
}

export function xyToRgb(x: number, y: number): [number, number, number] {
  if (y === 0) return [0, 0, 0];
  const Y = 1;
  const X = (Y / y) * x;
  const Z = (Y / y) * (1 - x - y);
  let r = X * 1.656492 - Y * 0.354851 - Z * 0.255038;
  let g = -X * 0.707196 + Y * 1.655397 + Z * 0.036152;
  let b = X * 0.051713 - Y * 0.121364 + Z * 1.01153;
  const gamma = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);
  [r, g, b] = [gamma(r), gamma(g), gamma(b)].map((v) => Math.max(0, v));
  const max = Math.max(r, g, b, 1e-9);
  return [clamp255((r / max) * 255), clamp255((g / max) * 255), clamp255((b / max) * 255)];
}

export function kelvinToRgb(kelvin: number): [number, number, number] {
  const t = kelvin / 100;
  const r = t <= 66 ? 255 : 329.698727446 * (t - 60) ** -0.1332047592;
  const g = t <= 66 ? 99.4708025861 * Math.log(t) - 161.1195681661 : 288.1221695283 * (t - 60) ** -0.0755148492;
  const b = t >= 66 ? 255 : t <= 19 ? 0 : 138.5177312231 * Math.log(t - 10) - 305.0447927307;
  return [clamp255(r), clamp255(g), clamp255(b)];
}

export const kelvinToMired = (k: number): number => Math.floor(1_000_000 / k);
export const miredToKelvin = (m: number): number => Math.round(1_000_000 / m);
