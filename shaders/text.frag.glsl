#version 450 core
// Text: the glyph atlas's coverage as the alpha of a solid colour.
in vec2 v_uv;
uniform sampler2D atlas;  // R8 coverage
uniform vec4 tint;
out vec4 colour;

void main() { colour = vec4(tint.rgb, tint.a * texture(atlas, v_uv).r); }
