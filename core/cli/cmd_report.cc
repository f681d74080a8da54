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
#include <utility>
#include <vector>

#include "cli_common.h"
#include "cli_options.h"
#include "commands.h"
#include "latscope/quanta.h"
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

// The heat map of the report (docs/ci-reports.md, "SVG charts"): at most
// ~600 columns; a longer run is shown on a quantum that is a whole multiple
// of the result's, so cells still nest exactly.
Status report_heatmap(const Engine& engine, const Options& o, HeatmapResult* hr) {
  HeatmapOptions h;
  h.quantum_ms = o.query.quantum_ms;
  h.rows = o.rows;
  h.sel = o.query.sel;
  Status st = engine.heatmap(h, hr);
  if (st.ok() && hr->quanta > 600) {
    h.quantum_ms *= std::ceil(hr->quanta / 600.0);
    st = engine.heatmap(h, hr);
  }
  return st;
}

// A path as seen from the report's folder, for a link in it.
std::string relative_to_report(const std::string& path, const std::string& report) {
  std::error_code ec;
  const fs::path base = fs::path(report).parent_path();
  const fs::path rel = fs::relative(path, base.empty() ? fs::path(".") : base, ec);
  return ec || rel.empty() ? path : rel.generic_string();
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

  // Without --quantum the report folds at the quantum the page opens the
  // same logs at (latscope/quanta.h default_quantum_ms; docs/page-views.md,
  // "Default quantum"), so both show one heat-map colour scale
  // (docs/page-views.md, "One colour scale"): the inputs are read once,
  // held, and the rule asked of them before the fold. 0 when no log has an
  // interval (the CLI's default stays). A result input is read at its own
  // quantum (parse_options).
  std::string own_from;
  double own = 0;
  const bool page_quantum = !o.quantum_given && !results_quantum(o.files, &own, &own_from);
  const auto quantum_of = [&o](const std::vector<Source>& sources) {
    const double q = default_quantum_ms(sources);
    if (q > 0 && q != o.query.quantum_ms) {
      o.query.quantum_ms = q;
      say("latscope report: note: quantum " + quantum_text(q) +
          " ms, the logs' interval, as the page opens them (--quantum to choose another)");
    }
    return q;
  };

  Result res;
  uint64_t in_bytes = 0;
  std::vector<TrustRow> trust;  // what the result came from, shown by the page
  int rc = page_quantum ? reduce_inputs_held(o, ra.keep, "report", quantum_of, &res, &in_bytes, &trust)
                        : reduce_inputs(o, ra.keep, "report", &res, &in_bytes, &trust);
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
  if (!st.ok()) {
    say("latscope report: " + st.message);
    return 2;
  }

  // The SLA and the charts: the embedded result read back, queried as
  // `latscope pctiles` would query that result file, so they show what the
  // page shows.
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
  const SlaReport rep = evaluate_sla(r, o.query.percentiles, sla.rules);
  SvgContext ctx;
  ctx.inputs = names;
  ReportStatic stat;
  stat.context = sla_context(r, names);
  stat.pctiles_svg = pctiles_svg(r, o.pct_labels, ctx, sla.rules, sla.rules.empty() ? nullptr : &rep);
  HeatmapResult hr;
  if (Status hs = report_heatmap(engine, o, &hr); hs.ok()) {
    stat.heatmap_svg = heatmap_svg(hr, ctx);
  } else {
    say("latscope report: heat map: " + hs.message);
    rc = std::max(rc, 2);
  }
  std::vector<std::pair<std::string, std::string>> artifacts = {
      {ra.out, "the report: the interactive page, one file; its verdict and static charts show where scripts do not run"}};
  if (!ra.svg_dir.empty()) {
    std::error_code ec;
    fs::create_directories(ra.svg_dir, ec);
    const std::string pp = (fs::path(ra.svg_dir) / "pctiles.svg").string();
    const std::string hp = (fs::path(ra.svg_dir) / "heatmap.svg").string();
    if (!write_text(pp, stat.pctiles_svg) || (!stat.heatmap_svg.empty() && !write_text(hp, stat.heatmap_svg))) {
      say("latscope report: cannot write the SVG charts into " + ra.svg_dir);
      return 2;
    }
    say("latscope report: " + pp + (stat.heatmap_svg.empty() ? "" : ", " + hp));
    stat.links.emplace_back(relative_to_report(pp, ra.out), "pctiles.svg");
    artifacts.emplace_back(pp, "latency percentiles over time (static SVG)");
    if (!stat.heatmap_svg.empty()) {
      stat.links.emplace_back(relative_to_report(hp, ra.out), "heatmap.svg");
      artifacts.emplace_back(hp, "latency heat map (static SVG)");
    }
  }
  stat.title = sla.rules.empty() ? "latscope report" : std::string("latscope report: SLA ") + (rep.pass() ? "PASS" : "FAIL");
  if (!sla.rules.empty()) {
    SlaVerdictOptions vo;
    vo.context = stat.context;
    stat.verdict_html = sla_html(r, sla.rules, rep, vo);
  }

  std::string html;
  std::string rules;  // the page shows the same SLA (docs/ci-reports.md)
  for (const SlaRule& x : sla.rules) rules += (rules.empty() ? "" : ",") + x.text;
  std::string group_by;  // the page opens grouped as the verdict was judged
  for (const std::string& g : o.query.group_by) group_by += (group_by.empty() ? "" : ",") + g;
  st = embed_report(page, display, bytes.data(), bytes.size(), &html, rules, trust_json(trust), report_static_html(stat),
                    group_by);
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
  return std::max(rc, finish_sla("report", sla, r, o.query.percentiles, stat.context, artifacts));
}

}  // namespace latscope::cli
