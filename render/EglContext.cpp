#include "render/EglContext.hpp"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <utility>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace fluxview::render {

namespace {

// EGL_NV_device_cuda: which CUDA device an EGL device is.
constexpr EGLint kEglCudaDeviceNv = 0x323A;

bool has_word(const char* list, const char* word) {
  if (!list) return false;
  const std::size_t n = std::strlen(word);
  for (const char* p = std::strstr(list, word); p; p = std::strstr(p + 1, word))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

std::string egl_error() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "EGL error 0x%04x", unsigned(eglGetError()));
  return buf;
}

}  // namespace

struct EglContext::State {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLSurface surface = EGL_NO_SURFACE;
  EGLContext context = EGL_NO_CONTEXT;

  // Initialises `d` and creates a 4.5 core context with a tiny pbuffer (some drivers
  // want a surface even when all drawing goes to framebuffer objects).
  bool try_display(EGLDisplay d, std::string& why) {
    if (d == EGL_NO_DISPLAY) {
      why = "no display";
      return false;
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(d, &major, &minor)) {
      why = "eglInitialize: " + egl_error();
      return false;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
      why = "no desktop OpenGL: " + egl_error();
      eglTerminate(d);
      return false;
    }
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                     EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(d, config_attribs, &config, 1, &count) || count == 0) {
      why = "no pbuffer config with 8-bit RGB";
      eglTerminate(d);
      return false;
    }
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      4,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
    EGLContext c = eglCreateContext(d, config, EGL_NO_CONTEXT, context_attribs);
    if (c == EGL_NO_CONTEXT) {
      why = "no OpenGL 4.5 core context: " + egl_error();
      eglTerminate(d);
      return false;
    }
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(d, config, pbuffer_attribs);
    if (!eglMakeCurrent(d, s, s, c)) {
      why = "eglMakeCurrent: " + egl_error();
      if (s != EGL_NO_SURFACE) eglDestroySurface(d, s);
      eglDestroyContext(d, c);
      eglTerminate(d);
      return false;
    }
    display = d;
    surface = s;
    context = c;
    return true;
  }
};

EglContext::EglContext() : egl_(std::make_unique<State>()) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  std::string tried;
  std::string why;

  // NVIDIA's driver lists EGL_EXT_device_base (enumeration and query together).
  if (has_word(client, "EGL_EXT_platform_device") &&
      (has_word(client, "EGL_EXT_device_enumeration") || has_word(client, "EGL_EXT_device_base"))) {
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (eglQueryDevicesEXT(16, devices, &n) && n > 0) {
      // CUDA device 0 first: interop needs the GL context on the GPU that holds the data.
      std::vector<std::pair<int, EGLint>> order;  // (device index, cuda id or -1)
      for (EGLint i = 0; i < n; ++i) {
        EGLAttrib cuda_id = -1;
        const char* dext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
        if (!(has_word(dext, "EGL_NV_device_cuda") &&
              eglQueryDeviceAttribEXT(devices[i], kEglCudaDeviceNv, &cuda_id)))
          cuda_id = -1;
        order.emplace_back(i, EGLint(cuda_id));
      }
      std::stable_sort(order.begin(), order.end(),
                       [](auto a, auto b) { return (a.second == 0) > (b.second == 0); });
      for (auto [i, cuda_id] : order) {
        EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (egl_->try_display(d, why)) {
          description_ = "EGL device " + std::to_string(i) +
                         (cuda_id >= 0 ? " (CUDA device " + std::to_string(cuda_id) + ")" : "");
          break;
        }
        tried += "device " + std::to_string(i) + ": " + why + "; ";
      }
    } else {
      tried += "device platform: no devices; ";
    }
  }
  if (egl_->context == EGL_NO_CONTEXT && has_word(client, "EGL_MESA_platform_surfaceless")) {
    EGLDisplay d =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (egl_->try_display(d, why))
      description_ = "EGL surfaceless (Mesa)";
    else
      tried += "surfaceless: " + why + "; ";
  }
  if (egl_->context == EGL_NO_CONTEXT) {
    if (egl_->try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY), why))
      description_ = "EGL default display";
    else
      tried += "default display: " + why;
  }
  if (egl_->context == EGL_NO_CONTEXT)
    throw std::runtime_error("no headless OpenGL 4.5 context through EGL (" + tried + ")");

  description_ += std::string(": ") + reinterpret_cast<const char*>(glGetString(GL_RENDERER)) +
                  ", OpenGL " + reinterpret_cast<const char*>(glGetString(GL_VERSION));
  // Where an earlier platform was passed over, say why (a multi-GPU node needs the
  // device platform for interop with the right GPU).
  if (!tried.empty()) description_ += " [passed over: " + tried + "]";
}

EglContext::~EglContext() {
  if (egl_->display == EGL_NO_DISPLAY) return;
  eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (egl_->surface != EGL_NO_SURFACE) eglDestroySurface(egl_->display, egl_->surface);
  eglDestroyContext(egl_->display, egl_->context);
  eglTerminate(egl_->display);
}

void EglContext::make_current() {
  eglMakeCurrent(egl_->display, egl_->surface, egl_->surface, egl_->context);
}

}  // namespace fluxview::render
