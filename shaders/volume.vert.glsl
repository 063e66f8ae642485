#version 450 core
// One triangle over the whole viewport: the ray caster works per pixel (volume.frag.glsl).
void main() {
  const vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
