// `latscope report`: a self-contained HTML report for CI (docs/ci-reports.md).
//
//   report FILE... -o report.html [--quantum MS] [--keep LABELS] [--sla SPEC]
//          [--sla-summary md [FILE.md]] [--svg DIR] [--template FILE] [pctiles options]
//
// The inputs are reduced to a result (the reduce path, reduce.h), encoded,
// and embedded in the single-file page (latscope/report_page.h). The SLA and
// the SVG charts are computed from that encoded result read back like any
// input, so they show what the page shows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "cli_common.h"
#include "cli_options.h"
#include "commands.h"
#include "latscope/report_page.h"
#include "latscope/result.h"
#include "latscope/svg.h"
#include "reduce.h"
#include "sla_args.h"

#ifndef LATSCOPE_REPORT_TEMPLATE_DEFAULT
#define LATSCOPE_REPORT_TEMPLATE_DEFAULT ""
#endif

namespace latscope::cli {
namespace {

namespace fs = std::filesystem;

struct ReportArgs {
  std::string out, keep, svg_dir, template_file;
};

bool take_report_args(std::vector<char*>* args, ReportArgs* a) {
  std::vector<char*> rest;
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string s = (*args)[i];
    const bool has_value = i + 1 < args->size();
    if (s == "--") {
      rest.insert(rest.end(), args->begin() + static_cast<std::ptrdiff_t>(i), args->end());
      break;
    }
    if ((s == "-o" || s == "--output") && has_value) {
      a->out = (*args)[++i];
    } else if (s == "--keep" && has_value) {
      a->keep = (*args)[++i];
      if (a->keep.empty()) a->keep = "-";
    } else if (s == "--svg" && has_value) {
      a->svg_dir = (*args)[++i];
    } else if (s == "--template" && has_value) {
      a->template_file = (*args)[++i];
    } else if (s == "-o" || s == "--output" || s == "--keep" || s == "--svg" || s == "--template") {
      say("latscope report: " + s + " needs a value (see latscope report --help)");
      return false;
    } else {
      rest.push_back((*args)[i]);
    }
  }
  if (a->out.empty()) {
    say("latscope report: -o report.html is required");
    return false;
  }
  *args = rest;
  return true;
}

// --template, else $LATSCOPE_REPORT_TEMPLATE, else latscope.html beside the
// executable, else the build's web/dist/latscope.html; "" when none exists.
std::string find_template(const std::string& given, std::string* tried) {
  std::vector<std::string> candidates;
  if (!given.empty()) {
    candidates.push_back(given);
  } else {
    if (const char* env = std::getenv("LATSCOPE_REPORT_TEMPLATE"); env && *env) candidates.emplace_back(env);
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) candidates.push_back((self.parent_path() / "latscope.html").string());
    if (*LATSCOPE_REPORT_TEMPLATE_DEFAULT) candidates.emplace_back(LATSCOPE_REPORT_TEMPLATE_DEFAULT);
  }
  for (const std::string& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) return c;
    *tried += (tried->empty() ? "" : ", ") + c;
  }
  return "";
}

bool write_text(const std::string& path, const std::string& text) {
  std::string err;
  if (write_file_atomic(path, text.data(), text.size(), &err)) return true;
  say("latscope report: " + err);
  return false;
}

std::string base_name(const std::string& path) {
  if (path == "-") return "(stdin)";
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The charts (docs/ci-reports.md, "SVG charts"). Returns 0 or 2.
int write_svgs(const std::string& dir, const Engine& engine, const Options& o, const QueryResult& r,
               const std::vector<std::string>& labels, const SlaArgs& sla, const SvgContext& ctx) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const SlaReport rep = evaluate_sla(r, o.query.percentiles, sla.rules);
  const std::string p = pctiles_svg(r, labels, ctx, sla.rules, sla.rules.empty() ? nullptr : &rep);
  // The heat map: at most ~600 columns; a longer run is shown on a quantum
  // that is a whole multiple of the result's, so cells still nest exactly.
  HeatmapOptions h;
  h.quantum_ms = o.query.quantum_ms;
  h.rows = o.rows;
  h.sel = o.query.sel;
  HeatmapResult hr;
  Status st = engine.heatmap(h, &hr);
  if (st.ok() && hr.quanta > 600) {
    h.quantum_ms *= std::ceil(hr.quanta / 600.0);
    st = engine.heatmap(h, &hr);
  }
  if (!st.ok()) {
    say("latscope report: heat map: " + st.message);
    return 2;
  }
  const std::string pp = (fs::path(dir) / "pctiles.svg").string(), hp = (fs::path(dir) / "heatmap.svg").string();
  if (!write_text(pp, p) || !write_text(hp, heatmap_svg(hr, ctx))) {
    say("latscope report: cannot write the SVG charts into " + dir);
    return 2;
  }
  say("latscope report: " + pp + ", " + hp);
  return 0;
}

}  // namespace

int cmd_report(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  ReportArgs ra;
  SlaArgs sla;
  if (!take_report_args(&args, &ra) || !take_sla_args(&args, "report", &sla)) return 2;
  Options o;
  if (!parse_options(static_cast<int>(args.size()), args.data(), 2, "report", &o)) return 2;
  // The template first: no work is done for a report that cannot be written.
  std::string tried;
  const std::string tpath = find_template(ra.template_file, &tried);
  if (tpath.empty()) {
    say("latscope report: no page template (tried " + tried +
        "); run `npm run build` to make web/dist/latscope.html, or pass --template FILE");
    return 2;
  }
  std::string page, err;
  if (!read_whole_file(tpath, &page, &err)) {
    say("latscope report: template " + tpath + ": " + err);
    return 2;
  }

  Result res;
  uint64_t in_bytes = 0;
  std::vector<TrustRow> trust;  // what the result came from, shown by the page
  int rc = reduce_inputs(o, ra.keep, "report", &res, &in_bytes, &trust);
  if (rc < 0) return 2;
  std::vector<uint8_t> bytes;
  Status st = encode_result(res, &deflate_zlib, &bytes);

  // Names leave as text in the page: control bytes (a TAB, a newline, ESC),
  // C1 controls and bidirectional overrides as \xNN, as on the terminal
  // (printable()), so the page always reopens the report; it refused a name
  // with a control character (docs/ci-reports.md, "Names").
  std::vector<std::string> names;
  for (const std::string& f : o.files) names.push_back(printable(base_name(f)));
  for (TrustRow& t : trust) {
    t.file = printable(t.file);
    t.used_instead = printable(t.used_instead);
  }
  const std::string display =
      names.size() == 1 ? names[0] : names[0] + " (+" + std::to_string(names.size() - 1) + " more)";
  std::string html;
  std::string rules;  // the page shows the same SLA (docs/ci-reports.md)
  for (const SlaRule& r : sla.rules) rules += (rules.empty() ? "" : ",") + r.text;
  if (st.ok()) st = embed_report(page, display, bytes.data(), bytes.size(), &html, rules, trust_json(trust));
  if (!st.ok()) {
    say("latscope report: " + tpath + ": " + st.message);
    return 2;
  }
  if (!write_text(ra.out, html)) {
    say("latscope report: cannot write " + ra.out);
    return 2;
  }
  say("latscope report: " + ra.out + ": " + std::to_string(html.size()) + " bytes (result " +
      std::to_string(bytes.size()) + " bytes from " + std::to_string(in_bytes) + " bytes of input)");
  if (sla.rules.empty() && ra.svg_dir.empty()) return rc;

  // The SLA and the charts: the embedded result read back, queried as
  // `latscope pctiles` would query that result file.
  Engine engine;
  const int h = engine.open_file(display + ".lsr");
  engine.append(h, reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (const Source& src = engine.finish(h); !src.status.ok()) {
    say("latscope report: reading the result back: " + src.status.message);
    return 2;
  }
  add_sla_percentiles(sla.rules, &o.query.percentiles, &o.pct_labels);
  // Clock offsets were applied when reducing; the result's quanta are shifted.
  o.query.sel.offsets_ms.clear();
  QueryResult r;
  st = engine.query(o.query, &r);
  if (!st.ok()) {
    say("latscope report: " + st.message);
    return 2;
  }
  SvgContext ctx;
  ctx.inputs = names;
  if (!ra.svg_dir.empty()) rc = std::max(rc, write_svgs(ra.svg_dir, engine, o, r, o.pct_labels, sla, ctx));
  return std::max(rc, finish_sla("report", sla, r, o.query.percentiles, sla_context(r, names)));
}

}  // namespace latscope::cli
