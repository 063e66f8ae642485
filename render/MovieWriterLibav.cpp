// Films through FFmpeg's libraries (Debian's libavcodec, libavformat, libswscale):
// RGBA frames converted to YUV 4:2:0 and encoded as they come.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "render/MovieWriter.hpp"

namespace fluxview::render::detail {

namespace {

std::string av_error(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

const AVCodec* best_encoder() {
  if (const AVCodec* c = avcodec_find_encoder_by_name("libx264")) return c;
  return avcodec_find_encoder(AV_CODEC_ID_MPEG4);
}

class LibavMovieWriter : public MovieWriter {
 public:
  LibavMovieWriter(std::filesystem::path path, std::filesystem::path temporary, int width,
                   int height, int fps)
      : path_(std::move(path)), temporary_(std::move(temporary)), width_(width), height_(height) {
    try {
      open(fps);
    } catch (...) {
      close();
      throw;
    }
  }
  ~LibavMovieWriter() override {
    close();
    std::error_code ec;
    if (!finished_) std::filesystem::remove(temporary_, ec);
  }

  void add_frame(const Image& f) override {
    if (f.width != width_ || f.height != height_)
      fail("a frame of " + std::to_string(f.width) + "x" + std::to_string(f.height) +
           " in a film of " + std::to_string(width_) + "x" + std::to_string(height_));
    check(av_frame_make_writable(frame_), "av_frame_make_writable");
    const std::uint8_t* src[1] = {f.rgba.data()};
    const int stride[1] = {f.width * 4};
    sws_scale(sws_, src, stride, 0, codec_->height, frame_->data, frame_->linesize);
    frame_->pts = frames_++;
    encode(frame_);
  }

  void finish() override {
    encode(nullptr);  // drain the encoder
    check(av_write_trailer(format_), "av_write_trailer");
    check(avio_closep(&format_->pb), "closing the file");
    close();
    std::filesystem::rename(temporary_, path_);
    finished_ = true;
  }
  std::int64_t frames() const override { return frames_; }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("movie " + path_.string() + ": " + what);
  }
  void check(int code, const char* call) const {
    if (code < 0) fail(std::string(call) + ": " + av_error(code));
  }

  void open(int fps) {
    av_log_set_level(AV_LOG_ERROR);  // the encoders' statistics are not for a run's log
    const std::string container = container_of(path_);
    check(avformat_alloc_output_context2(&format_, nullptr, container.c_str(), temporary_.c_str()),
          "avformat_alloc_output_context2");
    const AVCodec* codec = best_encoder();
    if (!codec) fail("libavcodec has neither libx264 nor an MPEG-4 encoder");
    stream_ = avformat_new_stream(format_, nullptr);
    codec_ = avcodec_alloc_context3(codec);
    if (!stream_ || !codec_) fail("out of memory");
    codec_->width = width_ & ~1;  // 4:2:0 colour: even sizes
    codec_->height = height_ & ~1;
    codec_->time_base = AVRational{1, fps};
    codec_->framerate = AVRational{fps, 1};
    codec_->pix_fmt = AV_PIX_FMT_YUV420P;
    codec_->gop_size = 2 * fps;
    if (std::string(codec->name) == "libx264") {
      // Sharp pictures of fields and text: a constant quality near transparent.
      av_opt_set(codec_->priv_data, "preset", "veryfast", 0);
      av_opt_set(codec_->priv_data, "crf", "18", 0);
    } else {
      codec_->flags |= AV_CODEC_FLAG_QSCALE;
      codec_->global_quality = FF_QP2LAMBDA * 2;
    }
    if (format_->oformat->flags & AVFMT_GLOBALHEADER) codec_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    check(avcodec_open2(codec_, codec, nullptr), "avcodec_open2");
    check(avcodec_parameters_from_context(stream_->codecpar, codec_),
          "avcodec_parameters_from_context");
    stream_->time_base = codec_->time_base;
    check(avio_open(&format_->pb, temporary_.c_str(), AVIO_FLAG_WRITE),
          ("avio_open " + temporary_.string()).c_str());
    check(avformat_write_header(format_, nullptr), "avformat_write_header");
    frame_ = av_frame_alloc();
    packet_ = av_packet_alloc();
    if (!frame_ || !packet_) fail("out of memory");
    frame_->format = codec_->pix_fmt;
    frame_->width = codec_->width;
    frame_->height = codec_->height;
    check(av_frame_get_buffer(frame_, 0), "av_frame_get_buffer");
    sws_ =
        sws_getContext(codec_->width, codec_->height, AV_PIX_FMT_RGBA, codec_->width,
                       codec_->height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (!sws_) fail("sws_getContext: no RGBA to YUV 4:2:0 conversion");
  }

  void encode(AVFrame* frame) {
    check(avcodec_send_frame(codec_, frame), "avcodec_send_frame");
    while (true) {
      const int r = avcodec_receive_packet(codec_, packet_);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
      check(r, "avcodec_receive_packet");
      // Every frame lasts one tick: without it the container's edit list ends at the last
      // frame's start and players drop that frame.
      if (packet_->duration == 0) packet_->duration = 1;
      av_packet_rescale_ts(packet_, codec_->time_base, stream_->time_base);
      packet_->stream_index = stream_->index;
      check(av_interleaved_write_frame(format_, packet_), "av_interleaved_write_frame");
    }
  }

  void close() {
    sws_freeContext(sws_);
    sws_ = nullptr;
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&codec_);
    if (format_) {
      if (format_->pb) avio_closep(&format_->pb);
      avformat_free_context(format_);
      format_ = nullptr;
    }
  }

  std::filesystem::path path_, temporary_;
  int width_, height_;
  AVFormatContext* format_ = nullptr;
  AVStream* stream_ = nullptr;
  AVCodecContext* codec_ = nullptr;
  AVFrame* frame_ = nullptr;
  AVPacket* packet_ = nullptr;
  SwsContext* sws_ = nullptr;
  std::int64_t frames_ = 0;
  bool finished_ = false;
};

}  // namespace

std::string libav_encoder() {
  const AVCodec* c = best_encoder();
  if (!c) return "";
  const unsigned v = avcodec_version();
  return "libavcodec " + std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." +
         std::to_string(v & 0xff) + " (" + c->name + ")";
}

std::unique_ptr<MovieWriter> open_libav_movie(const std::filesystem::path& path,
                                              const std::filesystem::path& temporary, int width,
                                              int height, int fps) {
  return std::make_unique<LibavMovieWriter>(path, temporary, width, height, fps);
}

}  // namespace fluxview::render::detail
