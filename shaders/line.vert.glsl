#version 450 core
// Solid lines and rectangles: box edges, colour-bar frame and ticks, label glyphs.
layout(location = 0) in vec3 position;
uniform mat4 mvp;

void main() { gl_Position = mvp * vec4(position, 1.0); }
