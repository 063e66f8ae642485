#version 450 core
// The 3D view's ray caster (VolumeRenderer): volume rendering through a transfer
// function and isosurfaces in one pass. Each pixel's ray runs through the box from
// where it enters to where it leaves or meets opaque geometry drawn before (slices,
// lines, box: their depth is read from scene_depth), so everything composes with
// correct depth; the result is blended premultiplied over that geometry.
//
// Samples are trilinear, a step of step_length (tied to the cell size) apart; each
// segment of length L absorbs 1 - (1 - a)^(L / unit_length) where a is the transfer
// function's opacity, so the picture does not depend on the step and a uniform field
// gives the analytic transmittance. The first segment is shortened by a per-pixel
// fraction (a fixed hash, so that two paths drawing the same values give the same
// image) to break up the rings of equal step counts. Rays stop once nearly opaque;
// bricks of 8^3 cells that the transfer function makes transparent and that no
// isosurface crosses are stepped over whole (empty-space skipping).
//
// FROM_BUFFER (set by the renderer): the values come from storage buffers read in
// place (the shared-memory path), interpolated here; else from 3D textures.

uniform mat4 mvp;
uniform mat4 inverse_mvp;
uniform vec2 viewport;
uniform vec3 half_extent;
uniform ivec3 dims;
uniform ivec3 brick_dims;
uniform sampler2D scene_depth;
uniform sampler2D transfer;     // 256 x 1 RGBA: colormap colour, opacity
uniform sampler2D max_opacity;  // 256 x 256: largest opacity over entries [i, j]
uniform sampler2D colormap;     // 256 x 1 RGBA8
uniform float lo, hi;
uniform bool log_scale;
uniform float step_length;  // box units
uniform float unit_length;  // box units: the layer an opacity refers to
uniform bool show_volume;
uniform bool lighting;
uniform bool skipping;
uniform int iso_count;
uniform float iso_values[4];
uniform vec3 iso_colours[4];
uniform float iso_opacity;
uniform bool iso_by_field;  // colour isosurfaces by the second field
uniform float colour_lo, colour_hi;
uniform bool colour_log;

#ifdef FROM_BUFFER
layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) readonly buffer Bricks { vec2 ranges[]; };
layout(std430, binding = 2) readonly buffer ColourValues { float colour_values[]; };

float fetch(ivec3 c) {
  c = clamp(c, ivec3(0), dims - 1);
  return values[c.x + dims.x * (c.y + dims.y * c.z)];
}
float fetch_colour(ivec3 c) {
  c = clamp(c, ivec3(0), dims - 1);
  return colour_values[c.x + dims.x * (c.y + dims.y * c.z)];
}
// What GL_LINEAR with clamp-to-edge does, in full float weights.
#define TRILINEAR(FETCH, tc)                                                            \
  vec3 c = tc * vec3(dims) - 0.5;                                                       \
  vec3 f = c - floor(c);                                                                \
  ivec3 i = ivec3(floor(c));                                                            \
  float x00 = mix(FETCH(i), FETCH(i + ivec3(1, 0, 0)), f.x);                            \
  float x10 = mix(FETCH(i + ivec3(0, 1, 0)), FETCH(i + ivec3(1, 1, 0)), f.x);           \
  float x01 = mix(FETCH(i + ivec3(0, 0, 1)), FETCH(i + ivec3(1, 0, 1)), f.x);           \
  float x11 = mix(FETCH(i + ivec3(0, 1, 1)), FETCH(i + ivec3(1, 1, 1)), f.x);           \
  return mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);
float sample_value(vec3 tc) { TRILINEAR(fetch, tc) }
float sample_colour_field(vec3 tc) { TRILINEAR(fetch_colour, tc) }
vec2 brick_range(ivec3 b) { return ranges[b.x + brick_dims.x * (b.y + brick_dims.y * b.z)]; }
#else
uniform sampler3D volume;
uniform sampler3D bricks;
uniform sampler3D colour_volume;
float sample_value(vec3 tc) { return texture(volume, tc).r; }
float sample_colour_field(vec3 tc) { return texture(colour_volume, tc).r; }
vec2 brick_range(ivec3 b) { return texelFetch(bricks, b, 0).rg; }
#endif

out vec4 colour;

float to_unit(float v, float l, float h, bool logarithmic) {
  if (logarithmic) {
    float lv = log(max(v, l));
    return (lv - log(l)) / max(log(h) - log(l), 1e-30);
  }
  return (v - l) / max(h - l, 1e-30);
}

vec4 transfer_at(float v) {
  float t = clamp(to_unit(v, lo, hi, log_scale), 0.0, 1.0);
  return texture(transfer, vec2((t * 255.0 + 0.5) / 256.0, 0.5));
}

vec3 texcoord(vec3 p) { return (p + half_extent) / (2.0 * half_extent); }

// The field's gradient in texture space: central differences a cell either side (the
// trilinear field's own gradient jumps at every cell face, which shows as rings on a
// shaded surface; differences over two cells smooth that out).
vec3 gradient(vec3 tc) {
  vec3 h = 1.0 / vec3(dims);
  return vec3(sample_value(tc + vec3(h.x, 0, 0)) - sample_value(tc - vec3(h.x, 0, 0)),
              sample_value(tc + vec3(0, h.y, 0)) - sample_value(tc - vec3(0, h.y, 0)),
              sample_value(tc + vec3(0, 0, h.z)) - sample_value(tc - vec3(0, 0, h.z))) /
         (2.0 * h);
}

// A headlight: the light comes from the eye, so every lit surface faces it.
vec3 shade(vec3 base, vec3 tc, vec3 ray) {
  vec3 g = gradient(tc) / (2.0 * half_extent);  // to box units
  float len = length(g);
  if (len < 1e-20) return base;
  float ndl = abs(dot(g / len, -ray));
  return base * (0.3 + 0.7 * ndl) + vec3(0.25 * pow(ndl, 40.0));
}

bool brick_is_empty(ivec3 b) {
  vec2 r = brick_range(b);
  if (isinf(r.x) || isinf(r.y) || isnan(r.x) || isnan(r.y)) return false;  // a bad cell shows
  for (int k = 0; k < iso_count; ++k)
    if (iso_values[k] >= r.x && iso_values[k] <= r.y) return false;
  if (!show_volume) return true;
  float t0 = clamp(to_unit(r.x, lo, hi, log_scale), 0.0, 1.0);
  float t1 = clamp(to_unit(r.y, lo, hi, log_scale), 0.0, 1.0);
  ivec2 e = ivec2(int(floor(t0 * 255.0)), int(ceil(t1 * 255.0)));
  return texelFetch(max_opacity, e, 0).r <= 0.0;
}

float hash(vec2 p) { return fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453); }

void main() {
  vec2 ndc = gl_FragCoord.xy / viewport * 2.0 - 1.0;
  vec4 a = inverse_mvp * vec4(ndc, -1.0, 1.0);
  vec4 b = inverse_mvp * vec4(ndc, 1.0, 1.0);
  vec3 origin = a.xyz / a.w;
  vec3 ray = normalize(b.xyz / b.w - origin);
  float scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
  gl_FragDepth = scene;
  colour = vec4(0.0);

  // Where the ray is inside the box.
  vec3 safe = vec3(abs(ray.x) < 1e-12 ? 1e-12 : ray.x, abs(ray.y) < 1e-12 ? 1e-12 : ray.y,
                   abs(ray.z) < 1e-12 ? 1e-12 : ray.z);
  vec3 ta = (-half_extent - origin) / safe, tb = (half_extent - origin) / safe;
  vec3 tmin = min(ta, tb), tmax = max(ta, tb);
  float t_in = max(max(max(tmin.x, tmin.y), tmin.z), 0.0);
  float t_out = min(min(tmax.x, tmax.y), tmax.z);
  // ... and in front of the opaque geometry.
  vec4 o = inverse_mvp * vec4(ndc, scene * 2.0 - 1.0, 1.0);
  t_out = min(t_out, dot(o.xyz / o.w - origin, ray));
  if (t_out <= t_in) return;

  vec4 acc = vec4(0.0);  // premultiplied colour, opacity
  float hit_depth = 2.0;
  float prev_t = t_in;
  float prev_v = sample_value(texcoord(origin + ray * t_in));
  float seg_start = t_in;
  float first = step_length * hash(gl_FragCoord.xy);
  ivec3 brick = ivec3(-1);
  for (int n = 0; n < 16384 && seg_start < t_out; ++n) {
    float seg_end = min(seg_start + (n == 0 && first > 1e-6 * step_length ? first : step_length),
                        t_out);
    float len = seg_end - seg_start;
    float t = 0.5 * (seg_start + seg_end);
    vec3 p = origin + ray * t;
    vec3 tc = texcoord(p);
    if (skipping) {
      ivec3 here = clamp(ivec3(floor(tc * vec3(dims) / 8.0)), ivec3(0), brick_dims - 1);
      if (here != brick) {
        brick = here;
        if (brick_is_empty(brick)) {
          // Leave the brick: the ray's exit from its box, in box coordinates.
          vec3 bmin = vec3(brick) * 8.0 / vec3(dims) * 2.0 * half_extent - half_extent;
          vec3 bmax = min(vec3(brick + 1) * 8.0 / vec3(dims), vec3(1.0)) * 2.0 * half_extent -
                      half_extent;
          vec3 ea = (bmin - origin) / safe, eb = (bmax - origin) / safe;
          vec3 emax = max(ea, eb);
          float exit_t = min(min(emax.x, emax.y), emax.z);
          if (exit_t > seg_start) {
            seg_start = min(exit_t + 1e-4 * step_length, t_out);
            prev_t = seg_start;
            prev_v = sample_value(texcoord(origin + ray * seg_start));
            continue;
          }
        }
      }
    }
    float v = sample_value(tc);
    if (isnan(v) || isinf(v)) {  // a blown-up cell is shown, never hidden
      acc += (1.0 - acc.a) * vec4(1.0, 0.0, 1.0, 1.0);
      hit_depth = min(hit_depth, 0.0);
      break;
    }
    // Isosurfaces crossed between the previous sample and this one, nearest first.
    int done = 0;
    for (int pass = 0; pass < iso_count && acc.a < 0.998; ++pass) {
      float best = 2.0;
      int which = -1;
      for (int k = 0; k < iso_count; ++k) {
        float s = iso_values[k];
        if ((done & (1 << k)) != 0 || (prev_v < s) == (v < s)) continue;
        float f = (s - prev_v) / (v - prev_v);
        if (f < best) {
          best = f;
          which = k;
        }
      }
      if (which < 0) break;
      done |= 1 << which;
      // Refine the crossing by bisection on the trilinear field.
      float s = iso_values[which];
      float ta0 = prev_t, ta1 = t;
      bool below0 = prev_v < s;
      for (int r = 0; r < 6; ++r) {
        float tm = 0.5 * (ta0 + ta1);
        bool below = sample_value(texcoord(origin + ray * tm)) < s;
        if (below != below0) {
          ta1 = tm;
        } else {
          ta0 = tm;
        }
      }
      float th = 0.5 * (ta0 + ta1);
      vec3 hp = origin + ray * th;
      vec3 htc = texcoord(hp);
      vec3 base = iso_colours[which];
      if (iso_by_field) {
        float u = clamp(to_unit(sample_colour_field(htc), colour_lo, colour_hi, colour_log), 0.0, 1.0);
        base = texture(colormap, vec2((u * 255.0 + 0.5) / 256.0, 0.5)).rgb;
      }
      vec3 lit = shade(base, htc, ray);
      acc += (1.0 - acc.a) * iso_opacity * vec4(lit, 1.0);
      if (hit_depth > 1.0) {
        vec4 clip = mvp * vec4(hp, 1.0);
        hit_depth = clip.z / clip.w * 0.5 + 0.5;
      }
    }
    if (show_volume && acc.a < 0.998) {
      vec4 tf = transfer_at(v);
      if (tf.a > 0.0) {
        float alpha = 1.0 - pow(1.0 - min(tf.a, 1.0), len / unit_length);
        vec3 c = tf.rgb;
        if (lighting && alpha > 0.002) c = shade(c, tc, ray);
        acc.rgb += (1.0 - acc.a) * alpha * c;
        acc.a += (1.0 - acc.a) * alpha;
      }
    }
    if (acc.a >= 0.998) break;
    prev_v = v;
    prev_t = t;
    seg_start = seg_end;
  }
  colour = acc;
  if (hit_depth <= 1.0) gl_FragDepth = min(scene, max(hit_depth, 0.0));
}
