#version 450 core
// Glyph quads of TextRenderer in pixels (placed by `mvp`), with atlas coordinates.
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 texcoord;
uniform mat4 mvp;
out vec2 v_uv;

void main() {
  v_uv = texcoord;
  gl_Position = mvp * vec4(position, 0.0, 1.0);
}
