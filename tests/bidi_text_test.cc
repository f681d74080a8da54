// File names are untrusted text: a bidirectional control in one (U+202E
// right-to-left override, ...) would reorder a Markdown verdict or an SVG
// label after it. The writers show such characters, never obey them
// (report.h bidi_control_len; docs/security.md).
#include <gtest/gtest.h>

#include <string>

#include "latscope/report.h"
#include "latscope/sla.h"
#include "report/svg_util.h"

namespace latscope {
namespace {

TEST(BidiText, ControlsAreFoundAndNamed) {
  const std::string rlo = "\xE2\x80\xAE", lri = "\xE2\x81\xA6", alm = "\xD8\x9C", lrm = "\xE2\x80\x8E";
  EXPECT_EQ(bidi_control_len("a" + rlo, 1), 3u);
  EXPECT_EQ(bidi_control_len(lri, 0), 3u);
  EXPECT_EQ(bidi_control_len(alm, 0), 2u);
  EXPECT_EQ(bidi_control_len(lrm, 0), 3u);
  EXPECT_EQ(bidi_control_text(rlo, 0, 3), "\\u202e");
  EXPECT_EQ(bidi_control_text(alm, 0, 2), "\\u061c");
  // Neighbours that are ordinary text stay text: U+2029, U+2070, an em dash, é.
  for (const std::string t : {"\xE2\x80\xA9", "\xE2\x81\xB0", "\xE2\x80\x94", "\xC3\xA9"}) EXPECT_EQ(bidi_control_len(t, 0), 0u) << t;
  EXPECT_EQ(bidi_control_len("\xE2\x80", 0), 0u) << "cut short";
}

TEST(BidiText, TheMarkdownVerdictShowsThemAsText) {
  const std::string name = "ab\xE2\x80\xAE" "cd_clat_hist.1.log";
  const std::string md = markdown_escape(name);
  EXPECT_EQ(md.find("\xE2\x80\xAE"), std::string::npos);
  EXPECT_NE(md.find("ab\\u202ecd"), std::string::npos) << md;
}

TEST(BidiText, SvgLabelsShowThemAsText) {
  const std::string t = svg::text("ab\xE2\x80\xAE" "cd");
  EXPECT_EQ(t, "ab\\u202ecd");
}

}  // namespace
}  // namespace latscope
