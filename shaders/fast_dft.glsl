// fast_dft.glsl — the fast path's small forward DFTs (radix 2, 3, 4, 5, 7, 8, 9, 10, 11, 13, 15, 16, 25) on
// v[0 .. R-1] of a vec2 array (x = re, y = im), R chosen at compile time after inlining.
// Included by fast_fft.comp; the same arithmetic as complex.cl's DFT_* and fast_fft.cl.
//
// Defines: RADIX_0 .. RADIX_7 (MAX_RADIX is 25 or 16 where one is). Provides MAX_RADIX, cmul_fast(a, b),
// twiddle_by_powers(v, w, R) and small_dft(v, R).

// Register arrays hold up to 16 or 25 values only where a radix-15, -16 or -25 stage needs them
// (as fast_fft.cl decides it).
#define HAS_RADIX(R)                                                                                       \
  (RADIX_0 == (R) || RADIX_1 == (R) || RADIX_2 == (R) || RADIX_3 == (R) || RADIX_4 == (R) || RADIX_5 == (R) || \
   RADIX_6 == (R) || RADIX_7 == (R))
#if HAS_RADIX(25)
#define MAX_RADIX 25
#elif HAS_RADIX(16) || HAS_RADIX(15)
#define MAX_RADIX 16
#else
#define MAX_RADIX 13
#endif

// -i * v
vec2 fast_mul_minus_i(vec2 v) { return vec2(v.y, -v.x); }

vec2 cmul_fast(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

void dft2(inout vec2 v[MAX_RADIX]) {
  vec2 a = v[0];
  v[0] = a + v[1];
  v[1] = a - v[1];
}

void dft3_values(inout vec2 c0, inout vec2 c1, inout vec2 c2) {
  const float s = 0.86602540378443865;
  vec2 a = c1 + c2;
  vec2 b = fast_mul_minus_i(c1 - c2) * s;
  vec2 m = c0 - 0.5 * a;
  c0 = c0 + a;
  c1 = m + b;
  c2 = m - b;
}
void dft3(inout vec2 v[MAX_RADIX]) { dft3_values(v[0], v[1], v[2]); }

void dft4_values(inout vec2 c0, inout vec2 c1, inout vec2 c2, inout vec2 c3) {
  vec2 v0 = c0 + c2, v1 = c1 + c3, v2 = c0 - c2, v3 = fast_mul_minus_i(c1 - c3);
  c0 = v0 + v1;
  c2 = v0 - v1;
  c1 = v2 + v3;
  c3 = v2 - v3;
}

void dft4(inout vec2 v[MAX_RADIX]) { dft4_values(v[0], v[1], v[2], v[3]); }

void dft5_values(inout vec2 c0, inout vec2 c1, inout vec2 c2, inout vec2 c3, inout vec2 c4) {
  const float a = 0.30901699437494742, b = 0.95105651629515357, c = 0.80901699437494742, d = 0.58778525229247313;
  vec2 v0 = c0;
  vec2 v1 = a * (c1 + c4) - c * (c2 + c3);
  vec2 v2 = c * (c1 + c4) - a * (c2 + c3);
  vec2 v3 = d * (c1 - c4) - b * (c2 - c3);
  vec2 v4 = b * (c1 - c4) + d * (c2 - c3);
  c0 = v0 + c1 + c2 + c3 + c4;
  c1 = v0 + v1 + fast_mul_minus_i(v4);
  c2 = v0 - v2 + fast_mul_minus_i(v3);
  c3 = v0 - v2 - fast_mul_minus_i(v3);
  c4 = v0 + v1 - fast_mul_minus_i(v4);
}

void dft5(inout vec2 v[MAX_RADIX]) { dft5_values(v[0], v[1], v[2], v[3], v[4]); }

// The second half of radix 5P as P x 5 (P = 2, 3, 5): radix-5 DFTs of a[k1 + P j], j < 5, for
// each k1 < P; X[k1 + P k2] lands in v[k1 + P k2].
void dft5_across(const vec2 a[MAX_RADIX], inout vec2 v[MAX_RADIX], const uint P) {
  for (uint k1 = 0u; k1 < P; ++k1) {
    vec2 y0 = a[k1], y1 = a[P + k1], y2 = a[2u * P + k1], y3 = a[3u * P + k1], y4 = a[4u * P + k1];
    dft5_values(y0, y1, y2, y3, y4);
    v[k1] = y0;
    v[k1 + P] = y1;
    v[k1 + 2u * P] = y2;
    v[k1 + 3u * P] = y3;
    v[k1 + 4u * P] = y4;
  }
}

void dft7(inout vec2 v[MAX_RADIX]) {
  const float a = 0.62348980185873353, b = 0.78183148246802981, c = 0.22252093395631440;
  const float d = 0.97492791218182361, e = 0.90096886790241913, f = 0.43388373911755812;
  vec2 v0 = v[0];
  vec2 s1 = v[1] + v[6], s2 = v[2] + v[5], s3 = v[3] + v[4];
  vec2 d1 = v[1] - v[6], d2 = v[2] - v[5], d3 = v[3] - v[4];
  vec2 v1 = a * s1 - c * s2 - e * s3;
  vec2 v2 = c * s1 + e * s2 - a * s3;
  vec2 v3 = e * s1 - a * s2 + c * s3;
  vec2 v4 = b * d1 + d * d2 + f * d3;
  vec2 v5 = d * d1 - f * d2 - b * d3;
  vec2 v6 = f * d1 - b * d2 + d * d3;
  vec2 sum = v0 + s1 + s2 + s3;
  v[1] = v0 + v1 + fast_mul_minus_i(v4);
  v[2] = v0 - v2 + fast_mul_minus_i(v5);
  v[3] = v0 - v3 + fast_mul_minus_i(v6);
  v[4] = v0 - v3 - fast_mul_minus_i(v6);
  v[5] = v0 - v2 - fast_mul_minus_i(v5);
  v[6] = v0 + v1 - fast_mul_minus_i(v4);
  v[0] = sum;
}

// Radix 8: two radix-4 halves (even, odd inputs) joined by w8^k.
void dft8(inout vec2 v[MAX_RADIX]) {
  const float h = 0.70710678118654752;
  vec2 e0 = v[0], e1 = v[2], e2 = v[4], e3 = v[6];
  vec2 o0 = v[1], o1 = v[3], o2 = v[5], o3 = v[7];
  dft4_values(e0, e1, e2, e3);
  dft4_values(o0, o1, o2, o3);
  o1 = vec2(h * (o1.x + o1.y), h * (o1.y - o1.x));
  o2 = fast_mul_minus_i(o2);
  o3 = vec2(h * (o3.y - o3.x), -h * (o3.x + o3.y));
  v[0] = e0 + o0;
  v[4] = e0 - o0;
  v[1] = e1 + o1;
  v[5] = e1 - o1;
  v[2] = e2 + o2;
  v[6] = e2 - o2;
  v[3] = e3 + o3;
  v[7] = e3 - o3;
}

#if MAX_RADIX >= 16
// Radix 16 as 4 x 4: radix-4 DFTs of (v_n2, v_n2+4, v_n2+8, v_n2+12), twiddles w16^(n2 k1),
// radix-4 DFTs across; X[k1 + 4 k2] lands in v[k1 + 4 k2].
void dft16(inout vec2 v[MAX_RADIX]) {
  const float h = 0.70710678118654752;
  const vec2 w1 = vec2(0.92387953251128674, -0.38268343236508977);
  const vec2 w3 = vec2(0.38268343236508977, -0.92387953251128674);
  vec2 a[16];
  for (uint n2 = 0u; n2 < 4u; ++n2) {
    vec2 x0 = v[n2], x1 = v[n2 + 4u], x2 = v[n2 + 8u], x3 = v[n2 + 12u];
    dft4_values(x0, x1, x2, x3);
    a[4u * n2] = x0;
    a[4u * n2 + 1u] = x1;
    a[4u * n2 + 2u] = x2;
    a[4u * n2 + 3u] = x3;
  }
  a[5] = cmul_fast(a[5], w1);
  a[6] = vec2(h * (a[6].x + a[6].y), h * (a[6].y - a[6].x));     // w16^2
  a[7] = cmul_fast(a[7], w3);
  a[9] = vec2(h * (a[9].x + a[9].y), h * (a[9].y - a[9].x));     // w16^2
  a[10] = fast_mul_minus_i(a[10]);                               // w16^4
  a[11] = vec2(h * (a[11].y - a[11].x), -h * (a[11].x + a[11].y));  // w16^6
  a[13] = cmul_fast(a[13], w3);
  a[14] = vec2(h * (a[14].y - a[14].x), -h * (a[14].x + a[14].y));  // w16^6
  a[15] = cmul_fast(a[15], -w1);                                 // w16^9 = -w16^1
  for (uint k1 = 0u; k1 < 4u; ++k1) {
    vec2 y0 = a[k1], y1 = a[4u + k1], y2 = a[8u + k1], y3 = a[12u + k1];
    dft4_values(y0, y1, y2, y3);
    v[k1] = y0;
    v[k1 + 4u] = y1;
    v[k1 + 8u] = y2;
    v[k1 + 12u] = y3;
  }
}
#endif

#if MAX_RADIX >= 25
// Radix 25 as 5 x 5, as radix 16: radix-5 DFTs of (v_n2, v_n2+5, ..., v_n2+20), twiddles
// w25^(n2 k1) (n2 k1 <= 16), radix-5 DFTs across; X[k1 + 5 k2] lands in v[k1 + 5 k2].
const vec2 W25[17] = vec2[](
    vec2(1.00000000000000000, -0.00000000000000000),
    vec2(0.96858316112863108, -0.24868988716485479),
    vec2(0.87630668004386358, -0.48175367410171532),
    vec2(0.72896862742141155, -0.68454710592868862),
    vec2(0.53582679497899655, -0.84432792550201508),
    vec2(0.30901699437494745, -0.95105651629515353),
    vec2(0.06279051952931353, -0.99802672842827156),
    vec2(-0.18738131458572460, -0.98228725072868872),
    vec2(-0.42577929156507272, -0.90482705246601947),
    vec2(-0.63742398974868975, -0.77051324277578925),
    vec2(-0.80901699437494734, -0.58778525229247325),
    vec2(-0.92977648588825135, -0.36812455268467814),
    vec2(-0.99211470131447776, -0.12533323356430454),
    vec2(-0.99211470131447788, 0.12533323356430429),
    vec2(-0.92977648588825146, 0.36812455268467792),
    vec2(-0.80901699437494778, 0.58778525229247269),
    vec2(-0.63742398974868952, 0.77051324277578936));
void dft25(inout vec2 v[MAX_RADIX]) {
  vec2 a[MAX_RADIX];
  for (uint n2 = 0u; n2 < 5u; ++n2) {
    vec2 x0 = v[n2], x1 = v[n2 + 5u], x2 = v[n2 + 10u], x3 = v[n2 + 15u], x4 = v[n2 + 20u];
    dft5_values(x0, x1, x2, x3, x4);
    a[5u * n2] = x0;
    a[5u * n2 + 1u] = x1;
    a[5u * n2 + 2u] = x2;
    a[5u * n2 + 3u] = x3;
    a[5u * n2 + 4u] = x4;
  }
  for (uint n2 = 1u; n2 < 5u; ++n2)
    for (uint k1 = 1u; k1 < 5u; ++k1) a[5u * n2 + k1] = cmul_fast(a[5u * n2 + k1], W25[n2 * k1]);
  dft5_across(a, v, 5u);
}
#endif

// Radix 9 as 3 x 3: radix-3 DFTs of (v0 v3 v6), (v1 v4 v7), (v2 v5 v8), twiddles w9^(n k),
// radix-3 DFTs across; X[k1 + 3 k2] lands in v[k1 + 3 k2].
void dft9(inout vec2 v[MAX_RADIX]) {
  const vec2 w1 = vec2(0.76604444311897804, -0.64278760968653933);
  const vec2 w2 = vec2(0.17364817766693035, -0.98480775301220806);
  const vec2 w4 = vec2(-0.93969262078590838, -0.34202014332566873);
  vec2 a0 = v[0], a1 = v[3], a2 = v[6];
  vec2 b0 = v[1], b1 = v[4], b2 = v[7];
  vec2 c0 = v[2], c1 = v[5], c2 = v[8];
  dft3_values(a0, a1, a2);
  dft3_values(b0, b1, b2);
  dft3_values(c0, c1, c2);
  b1 = cmul_fast(b1, w1);
  b2 = cmul_fast(b2, w2);
  c1 = cmul_fast(c1, w2);
  c2 = cmul_fast(c2, w4);
  dft3_values(a0, b0, c0);
  dft3_values(a1, b1, c1);
  dft3_values(a2, b2, c2);
  v[0] = a0;
  v[1] = a1;
  v[2] = a2;
  v[3] = b0;
  v[4] = b1;
  v[5] = b2;
  v[6] = c0;
  v[7] = c1;
  v[8] = c2;
}

// Radix 10 as 2 x 5: radix-2 DFTs of (v_n2, v_n2+5), twiddles w10^n2 on the differences,
// radix-5 DFTs across; X[k1 + 2 k2] lands in v[k1 + 2 k2].
const vec2 W10[5] = vec2[](
    vec2(1.00000000000000000, 0.00000000000000000),
    vec2(0.80901699437494745, -0.58778525229247314),
    vec2(0.30901699437494745, -0.95105651629515353),
    vec2(-0.30901699437494734, -0.95105651629515364),
    vec2(-0.80901699437494734, -0.58778525229247325));
void dft10(inout vec2 v[MAX_RADIX]) {
  vec2 a[MAX_RADIX];
  for (uint n2 = 0u; n2 < 5u; ++n2) {
    a[2u * n2] = v[n2] + v[n2 + 5u];
    a[2u * n2 + 1u] = n2 == 0u ? v[n2] - v[n2 + 5u] : cmul_fast(v[n2] - v[n2 + 5u], W10[n2]);
  }
  dft5_across(a, v, 2u);
}

#if MAX_RADIX >= 16
// Radix 15 as 3 x 5: radix-3 DFTs of (v_n2, v_n2+5, v_n2+10), twiddles w15^(n2 k1), radix-5
// DFTs across; X[k1 + 3 k2] lands in v[k1 + 3 k2].
const vec2 W15[9] = vec2[](
    vec2(1.00000000000000000, 0.00000000000000000),
    vec2(0.91354545764260087, -0.40673664307580015),
    vec2(0.66913060635885824, -0.74314482547739413),
    vec2(0.30901699437494745, -0.95105651629515353),
    vec2(-0.10452846326765333, -0.99452189536827340),
    vec2(-0.49999999999999978, -0.86602540378443871),
    vec2(-0.80901699437494734, -0.58778525229247325),
    vec2(-0.97814760073380569, -0.20791169081775931),
    vec2(-0.97814760073380569, 0.20791169081775907));
void dft15(inout vec2 v[MAX_RADIX]) {
  vec2 a[MAX_RADIX];
  for (uint n2 = 0u; n2 < 5u; ++n2) {
    vec2 x0 = v[n2], x1 = v[n2 + 5u], x2 = v[n2 + 10u];
    dft3_values(x0, x1, x2);
    a[3u * n2] = x0;
    a[3u * n2 + 1u] = n2 == 0u ? x1 : cmul_fast(x1, W15[n2]);
    a[3u * n2 + 2u] = n2 == 0u ? x2 : cmul_fast(x2, W15[2u * n2]);
  }
  dft5_across(a, v, 3u);
}
#endif

// Odd radix by symmetric pairs; cos/sin of 2 pi j / R as float constants from double.
const float COS11[11] = float[](1.0, 0.84125353283118117, 0.41541501300188643, -0.14231483827328514,
                                -0.65486073394528506, -0.95949297361449739, -0.95949297361449739,
                                -0.65486073394528506, -0.14231483827328514, 0.41541501300188643,
                                0.84125353283118117);
const float SIN11[11] = float[](0.0, 0.54064081745559756, 0.90963199535451837, 0.98982144188093268,
                                0.75574957435425828, 0.28173255684142970, -0.28173255684142970,
                                -0.75574957435425828, -0.98982144188093268, -0.90963199535451837,
                                -0.54064081745559756);
const float COS13[13] = float[](1.0, 0.88545602565320989, 0.56806474673115581, 0.12053668025532305,
                                -0.35460488704253562, -0.74851074817110109, -0.97094181742605203,
                                -0.97094181742605203, -0.74851074817110109, -0.35460488704253562,
                                0.12053668025532305, 0.56806474673115581, 0.88545602565320989);
const float SIN13[13] = float[](0.0, 0.46472317204376856, 0.82298386589365635, 0.99270887409805397,
                                0.93501624268541483, 0.66312265824079520, 0.23931566428755777,
                                -0.23931566428755777, -0.66312265824079520, -0.93501624268541483,
                                -0.99270887409805397, -0.82298386589365635, -0.46472317204376856);

float odd_cos(uint R, uint j) { return R == 11u ? COS11[j] : COS13[j]; }
float odd_sin(uint R, uint j) { return R == 11u ? SIN11[j] : SIN13[j]; }

void dft_odd(inout vec2 v[MAX_RADIX], const uint R) {
  vec2 s[7], d[7];
  for (uint m = 1u; m <= 6u; ++m) {
    if (m <= R / 2u) {
      s[m] = v[m] + v[R - m];
      d[m] = v[m] - v[R - m];
    }
  }
  vec2 v0 = v[0];
  vec2 sum = v0;
  for (uint m = 1u; m <= 6u; ++m)
    if (m <= R / 2u) sum += s[m];
  for (uint k = 1u; k <= 6u; ++k) {
    if (k <= R / 2u) {
      vec2 c = v0, t = vec2(0.0);
      for (uint m = 1u; m <= 6u; ++m) {
        if (m <= R / 2u) {
          c += s[m] * odd_cos(R, (m * k) % R);
          t += d[m] * odd_sin(R, (m * k) % R);
        }
      }
      v[k] = c + fast_mul_minus_i(t);
      v[R - k] = c - fast_mul_minus_i(t);
    }
  }
  v[0] = sum;
}

// v[r] *= w^r for 1 <= r < R, the powers formed as w^r = w^(r/2) w^(r - r/2): log2(R) products
// deep rather than a chain (as twiddle_by_powers in fast_fft.cl).
void twiddle_by_powers(inout vec2 v[MAX_RADIX], vec2 w, const uint R) {
  vec2 p[MAX_RADIX];
  p[1] = w;
  for (uint r = 2u; r < R; ++r) p[r] = cmul_fast(p[r / 2u], p[r - r / 2u]);
  for (uint r = 1u; r < R; ++r) v[r] = cmul_fast(v[r], p[r]);
}

void small_dft(inout vec2 v[MAX_RADIX], const uint R) {
  if (R == 2u) dft2(v);
  else if (R == 3u) dft3(v);
  else if (R == 4u) dft4(v);
  else if (R == 5u) dft5(v);
  else if (R == 7u) dft7(v);
  else if (R == 8u) dft8(v);
  else if (R == 9u) dft9(v);
  else if (R == 10u) dft10(v);
#if MAX_RADIX >= 16
  else if (R == 15u) dft15(v);
  else if (R == 16u) dft16(v);
#endif
#if MAX_RADIX >= 25
  else if (R == 25u) dft25(v);
#endif
  else if (R == 11u || R == 13u) dft_odd(v, R);
}

