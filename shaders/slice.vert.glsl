#version 450 core
// A textured quad of a slice (or of the colour bar), placed by the caller in clip space.
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 texcoord;
uniform mat4 mvp;
out vec2 v_uv;

void main() {
  v_uv = texcoord;
  gl_Position = mvp * vec4(position, 1.0);
}
