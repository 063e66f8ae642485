// The GUI's record button without a window: frames read from a framebuffer go into a
// film (ffprobe reads back its frame count and size) or a folder of PNGs; a target that
// cannot be written is refused without starting.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/gui/Recorder.hpp"
#include "render/GlResources.hpp"
#include "render/OffscreenRenderer.hpp"

namespace fs = std::filesystem;
using namespace fluxview;

TEST(Recorder, RecordsAFilmOrPngsFromTheFramebuffer) {
  const fs::path d = fs::temp_directory_path() / "fluxview_recorder";
  fs::remove_all(d);
  fs::create_directories(d);
  render::OffscreenRenderer off(130, 98);  // an even-sized film is cut from odd sizes too
  app::Recorder rec;
  // A folder that cannot be made: refused, and nothing recorded.
  EXPECT_NE(rec.start("/proc/fluxview-cannot/pngs").find("not recording"), std::string::npos);
  EXPECT_FALSE(rec.recording());
  for (const std::string target : {(d / "film.mp4").string(), (d / "pngs").string()}) {
    ASSERT_NE(rec.start(target).find("recording to"), std::string::npos);
    for (int i = 0; i < 7; ++i) {
      glClearColor(i / 7.0f, 0.2f, 0.3f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      EXPECT_EQ(rec.frame(130, 98), "");
    }
    EXPECT_NE(rec.stop().find("recorded 7 frames"), std::string::npos);
  }
  int pngs = 0;
  for (const auto& e : fs::directory_iterator(d / "pngs")) pngs += e.path().extension() == ".png";
  EXPECT_EQ(pngs, 7);
  if (std::system("ffprobe -version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no ffprobe";
  const std::string cmd =
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames,width,height -of csv=p=0 " +
      (d / "film.mp4").string() + " > " + (d / "probe.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string line;
  std::getline(std::ifstream(d / "probe.txt"), line);
  EXPECT_EQ(line, "130,98,7") << "width,height,frames";
}
