#pragma once
#include <algorithm>
#include <array>
#include <cmath>

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
