#version 450 core
// Maps a scalar to a colour: value -> t in [0, 1] (linear or log between lo and hi)
// -> a 256-entry colormap. The colour bar draws the same map with t = v_uv.y, so the
// bar and the slice can never disagree.
in vec2 v_uv;
uniform sampler2D values;    // R32F slice, nearest filtering: one texel per cell
// The shared-memory path (SliceTexture): the slice read in place from the memory CUDA
// wrote, as a buffer of size.x * size.y floats, u fastest; texel (i, j) is taken as the
// nearest filter would take it from the 2D texture, so both give the same picture.
uniform samplerBuffer values_buffer;
uniform bool from_buffer;
uniform ivec2 size;
uniform sampler2D colormap;  // 256 x 1 RGBA8
uniform float lo;
uniform float hi;
uniform bool log_scale;
uniform bool ramp;  // draw the colour bar instead of the field
out vec4 colour;

float to_unit(float v) {
  if (log_scale) {
    // lo is clamped above 0 by the caller; values at or below 0 map to the bottom.
    float l = log(max(v, lo));
    return (l - log(lo)) / max(log(hi) - log(lo), 1e-30);
  }
  return (v - lo) / max(hi - lo, 1e-30);
}

void main() {
  float t;
  if (ramp) {
    t = v_uv.y;
  } else {
    float v;
    if (from_buffer) {
      ivec2 p = clamp(ivec2(floor(v_uv * vec2(size))), ivec2(0), size - 1);
      v = texelFetch(values_buffer, p.y * size.x + p.x).r;
    } else {
      v = texture(values, v_uv).r;
    }
    if (isnan(v) || isinf(v)) {  // a blown-up cell is shown, never hidden
      colour = vec4(1.0, 0.0, 1.0, 1.0);
      return;
    }
    t = to_unit(v);
  }
  t = clamp(t, 0.0, 1.0);
  // Sample texel centres so t = 0 and t = 1 give exactly the first and last entries.
  colour = vec4(texture(colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb, 1.0);
}
