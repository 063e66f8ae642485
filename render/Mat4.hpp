#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace fluxview::render {

// Column-major 4x4 matrix as GL takes it (m[col * 4 + row]); only what the views need.
struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

  float& at(int row, int col) { return m[col * 4 + row]; }
  float at(int row, int col) const { return m[col * 4 + row]; }

  friend Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        float s = 0;
        for (int k = 0; k < 4; ++k) s += a.at(i, k) * b.at(k, j);
        r.at(i, j) = s;
      }
    return r;
  }
  // (x, y, z, 1) times the matrix: clip coordinates (x, y, z, w).
  std::array<float, 4> apply(std::array<float, 3> p) const {
    std::array<float, 4> r{};
    for (int i = 0; i < 4; ++i)
      r[i] = at(i, 0) * p[0] + at(i, 1) * p[1] + at(i, 2) * p[2] + at(i, 3);
    return r;
  }
  // The inverse by cofactors (in double, so that a perspective matrix's inverse keeps
  // the precision a ray needs); the identity where the matrix is singular.
  Mat4 inverse() const {
    double a[16];
    for (int i = 0; i < 16; ++i) a[i] = m[i];
    double inv[16];
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] +
             a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] -
             a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] +
             a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] -
              a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] -
             a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] +
             a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] -
             a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] +
              a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] +
             a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] -
             a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] +
              a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] -
              a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] -
             a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] +
             a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] -
              a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] +
              a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    const double det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    Mat4 r;
    if (det == 0) return r;
    for (int i = 0; i < 16; ++i) r.m[i] = float(inv[i] / det);
    return r;
  }
  // Maps [x0, x1] x [y0, y1] to clip space [-1, 1]^2 (z passes through).
  static Mat4 ortho(float x0, float x1, float y0, float y1) {
    Mat4 r;
    r.at(0, 0) = 2 / (x1 - x0);
    r.at(1, 1) = 2 / (y1 - y0);
    r.at(0, 3) = -(x1 + x0) / (x1 - x0);
    r.at(1, 3) = -(y1 + y0) / (y1 - y0);
    return r;
  }
  static Mat4 perspective(float fovy_radians, float aspect, float near, float far) {
    Mat4 r;
    const float f = 1.0f / std::tan(fovy_radians / 2);
    r.m.fill(0);
    r.at(0, 0) = f / aspect;
    r.at(1, 1) = f;
    r.at(2, 2) = (far + near) / (near - far);
    r.at(2, 3) = 2 * far * near / (near - far);
    r.at(3, 2) = -1;
    return r;
  }
  static Mat4 look_at(std::array<float, 3> eye, std::array<float, 3> centre,
                      std::array<float, 3> up) {
    auto sub = [](auto a, auto b) {
      return std::array<float, 3>{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    };
    auto cross = [](auto a, auto b) {
      return std::array<float, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                  a[0] * b[1] - a[1] * b[0]};
    };
    auto norm = [](auto a) {
      const float l = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
      return std::array<float, 3>{a[0] / l, a[1] / l, a[2] / l};
    };
    auto dot = [](auto a, auto b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
    const auto f = norm(sub(centre, eye));
    const auto s = norm(cross(f, up));
    const auto u = cross(s, f);
    Mat4 r;
    for (int i = 0; i < 3; ++i) {
      r.at(0, i) = s[i];
      r.at(1, i) = u[i];
      r.at(2, i) = -f[i];
    }
    r.at(0, 3) = -dot(s, eye);
    r.at(1, 3) = -dot(u, eye);
    r.at(2, 3) = dot(f, eye);
    return r;
  }
};

}  // namespace fluxview::render
