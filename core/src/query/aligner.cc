#include "query/aligner.h"
#include "query/one_account.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "query/axis.h"
#include "query/interval.h"
#include "query/layout_merge.h"
#include "query/per_io.h"
#include "query/placement.h"
#include "query/time_base.h"

namespace latscope {

std::unique_ptr<RebinMap> make_rebin(const BinLayout& from, const BinLayout& to) {
  auto m = std::make_unique<RebinMap>();
  const size_t k = to.size();
  for (size_t i = 0; i < from.size(); ++i) {
    m->start.push_back(static_cast<uint32_t>(m->to.size()));
    const double lo = from.lo[i];
    const bool sat = from.last_saturates && i + 1 == from.size();
    // Saturated samples have no upper edge: they go where their lower bound is.
    const double hi = sat ? lo : from.hi[i];
    size_t j = static_cast<size_t>(std::upper_bound(to.lo.begin(), to.lo.end(), lo) - to.lo.begin());
    j = j ? j - 1 : 0;
    if (hi <= lo) {
      m->to.push_back(static_cast<uint32_t>(std::min(j, k - 1)));
      m->frac.push_back(1.0);
      continue;
    }
    double placed = 0;
    for (; j < k && to.lo[j] < hi; ++j) {
      const bool last = j + 1 == k;
      const double a = std::max(lo, to.lo[j]);
      const double b = last && to.last_saturates ? hi : std::min(hi, to.hi[j]);
      if (b <= a) continue;
      const double f = (b - a) / (hi - lo);
      m->to.push_back(static_cast<uint32_t>(j));
      m->frac.push_back(f);
      placed += f;
    }
    if (placed < 1.0 - 1e-12) {  // beyond the target's range: clamp to its ends
      m->to.push_back(static_cast<uint32_t>(lo < to.lo[0] ? 0 : k - 1));
      m->frac.push_back(1.0 - placed);
    }
  }
  m->start.push_back(static_cast<uint32_t>(m->to.size()));
  return m;
}

namespace {

std::string base_name(const std::string& path) {
  const size_t s = path.find_last_of("/\\");
  return s == std::string::npos ? path : path.substr(s + 1);
}

}  // namespace

// "job=2" < "job=10": compare digit runs by value.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i]));
    const bool db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      const std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

bool parse_group_by(const std::string& text, GroupBy* out) {
  GroupBy g;
  if (text != "all") {
    size_t a = 0;
    for (;;) {
      const size_t c = text.find(',', a);
      const std::string name = text.substr(a, c == std::string::npos ? std::string::npos : c - a);
      if (name.empty()) return false;
      for (char ch : name)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-')) return false;
      if (std::find(g.begin(), g.end(), name) == g.end()) g.push_back(name);
      if (c == std::string::npos) break;
      a = c + 1;
    }
  }
  *out = std::move(g);
  return true;
}

// "host=a;job=1": label values in the order the user named them. A series
// without the label shows "none" (host: "local", see label_of).
std::string group_key(const Source& src, const Series& s, const GroupBy& group_by) {
  std::string key;
  for (const std::string& name : group_by) {
    if (!key.empty()) key += ';';
    std::string v = label_of(src, s, name);
    key += name + "=" + (v.empty() ? std::string("none") : v);
  }
  return key.empty() ? "all" : key;
}

std::string co_key(const std::string& key, bool corrected) {
  const char* co = corrected ? "co=corrected" : "co=uncorrected";
  return key == "all" ? std::string(co) : key + ";" + co;
}

bool co_interval_ns(const Selection& sel, double* ns) {
  if (!(sel.co_interval_ms > 0) || !std::isfinite(sel.co_interval_ms)) return false;
  *ns = sel.co_interval_ms * 1e6;
  return true;
}

namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The page shows logs without a host as "(local)"; the engine's label is
// "local". Either names them in offsets and exclusions.
bool host_listed(const std::vector<std::string>& v, const std::string& host) {
  return contains(v, host) || (host == "local" && contains(v, "(local)"));
}

}  // namespace

bool name_excluded(const std::string& name, const Selection& sel) {
  return contains(sel.exclude_sources, name) || contains(sel.exclude_sources, base_name(name));
}

bool source_excluded(const Source& src, const Selection& sel) { return name_excluded(src.name, sel); }

void select_series(const Source& src, const Selection& sel, std::vector<Selected>* out, Role role) {
  if (!src.status.ok()) return;
  const std::string file = base_name(src.name);
  if (source_excluded(src, sel)) return;
  for (const Series& s : src.series) {
    if (s.role != role) continue;  // whole-run histograms: tails only (tail.cc); window values: window_values.h
    if (!(sel.dirs & (1u << static_cast<unsigned>(s.dir))) || s.windows.empty()) continue;
    if (!sel.kinds.empty() && !contains(sel.kinds, kind_of(src, s))) continue;
    const std::string host = label_of(src, s, "host");
    if (host_listed(sel.exclude_hosts, host)) continue;
    double offset = 0;
    // A file's entry wins over its job's ("job:N", "job:HOST/N"), which wins
    // over its host's (docs/placement.md).
    auto it = sel.offsets_ms.find(src.name);
    if (it == sel.offsets_ms.end()) it = sel.offsets_ms.find(file);
    if (it == sel.offsets_ms.end() && !s.job.empty()) {
      it = sel.offsets_ms.find("job:" + host + "/" + s.job);
      if (it == sel.offsets_ms.end() && host == "local") it = sel.offsets_ms.find("job:" + s.job);
    }
    const bool named = it != sel.offsets_ms.end();
    if (it == sel.offsets_ms.end()) it = sel.offsets_ms.find(host);
    if (it == sel.offsets_ms.end() && host == "local") it = sel.offsets_ms.find("(local)");
    if (it != sel.offsets_ms.end()) offset = it->second;
    Selected x;
    x.src = &src;
    x.series = &s;
    x.offset_ms = offset;
    x.cover_start = s.windows.front().start_ms + offset;
    x.cover_end = s.windows.back().end_ms + offset;
    if (s.per_io) x.cover_end += 1;  // a per-I/O stamp t (ms, truncated) covers [t, t + 1)
    x.full_start = std::isnan(s.full_start_ms) ? x.cover_start : s.full_start_ms + offset;
    x.full_end = std::isnan(s.full_end_ms) ? x.cover_end : s.full_end_ms + offset;
    x.unit = std::ldexp(1.0, -static_cast<int>(s.count_frac_bits));
    x.interval_ms = std::isnan(s.interval_ms) ? logging_interval_ms(s) : s.interval_ms;
    x.offset_named = named;
    out->push_back(x);
  }
}

Status unknown_group_label(const std::string& name, const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& k : known) {
    list += list.empty() ? "" : ", ";
    list += k;
  }
  std::string msg = "group by '" + name;
  msg += "': no selected series has that label (labels: ";
  msg += list;
  msg += ")";
  return Status::Error(ErrorCode::kInvalidArgument, msg);
}

void take_plan_facts(const Plan& plan, QueryResult* out) {
  out->groups = plan.groups;
  out->absolute_time = plan.absolute_time;
  out->layout_id = plan.layout ? plan.layout->id : "";
  out->diag = plan.diag;
  out->notes = plan.notes;
  out->placed = plan.placed;
}

Status check_group_by(const std::vector<Selected>& series, const GroupBy& group_by) {
  for (const std::string& name : group_by) {
    if (name == "host") continue;  // every series has one ("local")
    bool found = false;
    std::vector<std::string> known{"host"};
    for (const Selected& x : series) {
      for (const Labels* l : {&x.series->labels, &x.src->labels})
        for (const auto& kv : l->items()) {
          if (kv.first == name) found = true;
          if (!contains(known, kv.first)) known.push_back(kv.first);
        }
      if (found) break;
    }
    if (!found && !series.empty()) {
      std::sort(known.begin(), known.end());
      return unknown_group_label(name, known);
    }
  }
  return Status::Ok();
}

namespace {

// Epoch and relative logs never share a time axis: the series of the time
// base fewer selected series have are left out and named (time_base.h).
void keep_one_time_base(Plan* plan) {
  TimeBaseTally tb;
  for (const Selected& x : plan->series) tb.count(*x.src, 1);
  if (!tb.mixed()) return;
  tb.report(&plan->notes, &plan->diag);
  const bool epoch = tb.kept() == 1;
  plan->series.erase(std::remove_if(plan->series.begin(), plan->series.end(),
                                    [epoch](const Selected& x) { return x.src->absolute_time != epoch; }),
                     plan->series.end());
}

}  // namespace

SourceRefs refs_of(const std::vector<Source>& sources) {
  SourceRefs r;
  r.reserve(sources.size());
  for (const Source& s : sources) r.push_back(&s);
  return r;
}

Status make_plan(const std::vector<Source>& sources, const Selection& sel, const GroupBy& group_by,
                 double quantum_ms, Plan* plan) {
  return make_plan(refs_of(sources), sel, group_by, quantum_ms, plan);
}

Status make_plan(const SourceRefs& sources, const Selection& sel, const GroupBy& group_by, double quantum_ms,
                 Plan* plan) {
  if (!(quantum_ms > 0) || !std::isfinite(quantum_ms))
    return Status::Error(ErrorCode::kInvalidArgument, "quantum must be a positive number of ms");
  plan->quantum_ms = quantum_ms;

  std::vector<std::string> keys;
  bool any_abs = false, any_rel = false;
  for (const Source* src : sources) select_series(*src, sel, &plan->series);
  if (plan->series.empty()) {  // fio json+ alone (docs/whole-run.md)
    for (const Source* src : sources) select_series(*src, sel, &plan->series, Role::kWholeRun);
    if (!plan->series.empty()) plan->notes.push_back(whole_run_note());
  }
  if (sel.kinds.empty()) keep_default_kind(&plan->series, &plan->notes);  // per_io.h
  keep_one_account(sources, sel, group_by, plan);  // one_account.h
  keep_one_time_base(plan);  // time_base.h
  if (sel.place_jobs) {  // placement.h
    JsonIndex json;
    for (const Source* src : sources)
      if (!source_excluded(*src, sel)) json.add(*src);  // a json+ the user left out places nothing
    PlacementTally placed;
    place_series(json, plan->series.begin(), plan->series.end(), &placed);
    placed.notes(&plan->notes);
    for (const auto& [ms, files] : placed.shifted)
      for (const std::string& f : files) plan->placed[f] = ms;
  }
  LateStartCheck late;
  for (const Selected& x : plan->series) late.see(x);
  late.notes(&plan->notes);
  FinerTally finer;  // interval.h
  for (const Selected& x : plan->series) finer.count(x.interval_ms, quantum_ms, x.src->name);
  finer.notes(quantum_ms, &plan->notes);
  Status gst = check_group_by(plan->series, group_by);
  if (!gst.ok()) return gst;
  double co_ns = 0;
  const bool co = co_interval_ns(sel, &co_ns);
  if (co) {  // each series twice: as recorded, and corrected (co.h)
    std::map<const BinLayout*, CoCorrector*> made;
    const size_t n = plan->series.size();
    for (size_t i = 0; i < n; ++i) {
      Selected y = plan->series[i];
      const LayoutPtr& l = y.series->layout;
      if (!made.count(l.get())) {
        plan->correctors.push_back(std::make_unique<CoCorrector>(l, co_ns));
        made[l.get()] = plan->correctors.back().get();
      }
      y.co = made[l.get()];
      plan->series.push_back(y);
    }
  }
  for (const Selected& x : plan->series) {
    keys.push_back(co ? co_key(group_key(*x.src, *x.series, group_by), x.co != nullptr)
                      : group_key(*x.src, *x.series, group_by));
    (x.src->absolute_time ? any_abs : any_rel) = true;
  }
  plan->absolute_time = any_abs && !any_rel;

  // Groups in natural order.
  std::vector<std::string> uniq = keys;
  std::sort(uniq.begin(), uniq.end(), natural_less);
  uniq.erase(std::unique(uniq.begin(), uniq.end()), uniq.end());
  plan->groups = uniq;
  for (size_t i = 0; i < plan->series.size(); ++i)
    plan->series[i].group = static_cast<uint32_t>(
        std::lower_bound(uniq.begin(), uniq.end(), keys[i], natural_less) - uniq.begin());

  // Common layout: query/layout_merge.h.
  std::map<std::string, LayoutPtr> layouts;
  for (const Selected& x : plan->series) layouts[x.series->layout->id] = x.series->layout;
  if (!layouts.empty()) plan->layout = merge_layout(layouts);
  if (layouts.size() > 1) {
    const std::string what = describe_layout_merge(layouts, *plan->layout);
    if (!what.empty()) plan->diag.add(Issue::kMixedLayouts, 0, 0, what);
    std::map<std::string, const RebinMap*> made;
    for (Selected& x : plan->series) {
      const std::string& id = x.series->layout->id;
      if (id == plan->layout->id) continue;
      if (!made.count(id)) {
        plan->maps.push_back(make_rebin(*x.series->layout, *plan->layout));
        made[id] = plan->maps.back().get();
      }
      x.rebin = made[id];
    }
  }

  if (sel.complete_tail) add_json_tails(sources, sel, plan);
  if (plan->series.empty()) {
    plan->quanta = 0;
    return Status::Ok();
  }
  double lo = plan->series[0].cover_start, hi = plan->series[0].cover_end;
  for (const Selected& x : plan->series) {
    lo = std::min(lo, x.cover_start);
    hi = std::max(hi, x.cover_end);
  }
  double first = 0, last = 0;
  const auto runs_of = [plan, quantum_ms](std::vector<TimeRun>* runs) {
    for (size_t i = 0; i < plan->series.size(); ++i) {
      const Selected& x = plan->series[i];
      if (!x.co) add_time_runs(*x.series, x.offset_ms, x.src->name, i, quantum_ms, runs);  // co copies: no I/Os (co.h)
    }
  };
  std::vector<std::string> far;  // axis.h: what did not fit on one axis
  std::vector<size_t> gone;
  Status ast =
      decide_axis(&lo, &hi, plan->absolute_time, sel, quantum_ms, runs_of, &first, &last, &far, &plan->diag, &gone);
  if (!ast.ok()) return ast;
  plan->notes.insert(plan->notes.end(), far.begin(), far.end());
  if (!gone.empty()) {  // with their corrected copies
    std::set<const Series*> out;
    for (size_t i : gone) out.insert(plan->series[i].series);
    plan->series.erase(std::remove_if(plan->series.begin(), plan->series.end(),
                                      [&out](const Selected& x) { return out.count(x.series) != 0; }),
                       plan->series.end());
  }
  plan->first = first;
  plan->t0 = first * quantum_ms;
  plan->quanta = last > first ? static_cast<size_t>(last - first) : 0;
  return Status::Ok();
}


double add_window(const Selected& x, const Window& w, const Share& share, double* g, WindowScratch* s,
                  ExtremeBins* xb, ExtremeBins* touched, std::vector<uint32_t>* occupied) {
  double added = 0;
  // A result's window brings the extremes its cell recorded, not its bins
  // (docs/extremes.md, "Results").
  const ExtremeBins* recorded = nullptr;
  if (xb && !x.co && !x.series->extremes.empty()) {
    recorded = &x.series->extremes[static_cast<size_t>(&w - x.series->windows.data())];
    if (recorded->any())
      for (uint32_t bin : {recorded->lo, recorded->hi}) {
        if (!x.rebin) xb->add(bin);
        else
          for (uint32_t r = x.rebin->start[bin]; r < x.rebin->start[bin + 1]; ++r) xb->add(x.rebin->to[r]);
      }
    xb = nullptr;
  }
  // Bins left in the file (Series::line_at) are read from it again.
  const bool elsewhere = !x.series->line_at.empty();
  if (!x.co && !x.rebin && !elsewhere) {
    // The common case, kept lean: a window's bins come in ascending order
    // (Series::data), so the bins it touches and its extremes are its first
    // and last bin, not a test per bin; and a window wholly inside the
    // quantum adds its counts as they are (Share::of's rounding is for parts).
    if (w.n == 0) return 0;
    const uint8_t* p = x.series->data.data() + w.offset;
    uint64_t bin = varint::get(p);
    const uint32_t first = static_cast<uint32_t>(bin);
    const double unit = x.unit;
    // Share::of's value in each case, chosen once per window: counts are
    // never negative, and a count of whole result units (unit >= 2^-28,
    // kResultOne) is its own on_result_grid, so a window's part up to its
    // end is the count less its part before the quantum (same bits).
    const double before = share.before, upto = share.upto;
    // Listing the bins that were zero is compiled only into the loop that
    // does it: fio's layouts never ask (kWideLayoutBins).
    const auto each = [&](auto part, auto list) {
      double sum = 0;  // a local keeps it in a register; added is 0 until now, so the same bits
      for (uint32_t i = 0;;) {
        const double v = part(static_cast<double>(varint::get(p)) * unit);
        sum += v;
        if constexpr (decltype(list)::value) {
          if (g[bin] == 0) occupied->push_back(static_cast<uint32_t>(bin));
        }
        g[bin] += v;
        if (++i == w.n) break;
        bin += 1 + varint::get(p);
      }
      added = sum;
    };
    const auto by_share = [&](auto list) {
      if (before == 0 && upto == 1) each([](double n) { return n; }, list);
      else if (before == 0) each([upto](double n) { return on_result_grid_unsigned(n * upto); }, list);
      else if (upto == 1 && unit * kResultOne >= 1)
        each([before](double n) { return n - on_result_grid_unsigned(n * before); }, list);
      else
        each([before, upto](double n) { return on_result_grid_unsigned(n * upto) - on_result_grid_unsigned(n * before); },
             list);
    };
    if (occupied) by_share(std::true_type{});
    else by_share(std::false_type{});
    for (ExtremeBins* e : {touched, xb})
      if (e) {
        e->add(first);
        e->add(static_cast<uint32_t>(bin));
      }
    return added;
  }
  const auto add = [&](uint32_t bin, uint64_t n) {
    const double v = share.of(static_cast<double>(n) * x.unit);
    added += v;
    if (occupied) {
      if (!x.rebin) {
        if (g[bin] == 0) occupied->push_back(bin);
      } else {
        for (uint32_t r = x.rebin->start[bin]; r < x.rebin->start[bin + 1]; ++r)
          if (g[x.rebin->to[r]] == 0) occupied->push_back(x.rebin->to[r]);
      }
    }
    if (!x.rebin) g[bin] += v;
    else add_rebinned(*x.rebin, bin, v, g);
    if (touched) {
      if (!x.rebin) touched->add(bin);
      else
        for (uint32_t r = x.rebin->start[bin]; r < x.rebin->start[bin + 1]; ++r) touched->add(x.rebin->to[r]);
    }
    if (!xb) return;
    if (!x.rebin) xb->add(bin);
    else
      for (uint32_t r = x.rebin->start[bin]; r < x.rebin->start[bin + 1]; ++r) xb->add(x.rebin->to[r]);
  };
  if (!x.co && !elsewhere) {
    x.series->for_each_bin(w, add);
    return added;
  }
  const std::vector<uint32_t>* bins = &s->bins;
  const std::vector<uint64_t>* counts = &s->counts;
  if (elsewhere && s->fed_bins) {
    bins = &s->fed_bins->bins;
    counts = &s->fed_bins->counts;
  } else if (elsewhere) {
    DecodedWindow* d = s->kept ? s->kept : &s->once;
    const size_t wi = s->fed ? s->fed_wi : static_cast<size_t>(&w - x.series->windows.data());
    if (d->series != x.series || d->wi != wi) {
      d->series = nullptr;
      const Status st = s->fed ? x.series->elsewhere->bins(s->fed_line, w.n, w.total, &d->bins, &d->counts)
                               : x.series->decode_at(wi, &d->bins, &d->counts);
      if (!st.ok()) {
        if (s->error.ok()) s->error = st;
        return 0;
      }
      d->series = x.series;
      d->wi = wi;
    }
    bins = &d->bins;
    counts = &d->counts;
  } else {
    x.series->decode(w, &s->bins, &s->counts);
  }
  if (x.co) {
    x.co->correct(*bins, *counts, &s->cbins, &s->ccounts);
    bins = &s->cbins;
    counts = &s->ccounts;
  }
  for (size_t t = 0; t < bins->size(); ++t) add((*bins)[t], (*counts)[t]);
  return added;
}

std::string skipped_quanta_note(double from_ms, double to_ms, size_t quanta) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "no I/O in any group from %.17g ms to %.17g ms (%zu quanta): left out of the rows",
                from_ms, to_ms, quanta);
  return buf;
}

std::string whole_run_note() {
  return "only fio json+ output is selected: each job's whole-run histogram is shown as one window over its "
         "run (startdelay, startdelay + runtime], its counts spread evenly over the quanta it covers (rows "
         "flagged finer); a quantum as long as the run gives the whole run's percentiles (docs/whole-run.md)";
}

size_t Sweep::next_busy(size_t j) const {
  const double a = (plan_.first + static_cast<double>(j)) * plan_.quantum_ms;
  double best = static_cast<double>(plan_.quanta);
  for (size_t si = 0; si < plan_.series.size(); ++si) {
    const Selected& x = plan_.series[si];
    const std::vector<Window>& w = windows_of(si);
    for (size_t i = cursor_[si]; i < w.size(); ++i) {
      const double s = w[i].start_ms + x.offset_ms, e = w[i].end_ms + x.offset_ms;
      if (e < a || (e == a && e > s) || w[i].total == 0) continue;  // as next() skips them; no count
      // (s, e] first overlaps the quantum holding s (an instant: holding e).
      const double at = std::floor(std::max(s, a) / plan_.quantum_ms) - plan_.first;
      best = std::min(best, std::max(at, static_cast<double>(j)));
      break;
    }
  }
  return static_cast<size_t>(best);
}

size_t row_quanta_bound(const Plan& plan) {
  // A query gives rows for every quantum some window touches, and for the
  // empty quanta of each gap shorter than kSkipEmptyQuanta (query.cc): such
  // a gap ends where a run of some series starts (or at the grid's end), so
  // each run is charged its length plus the gap that may precede it.
  const double q = plan.quantum_ms;
  const double last = static_cast<double>(plan.quanta) - 1;
  const double gap = static_cast<double>(kSkipEmptyQuanta) - 1;
  double sum = gap;  // the grid's end
  for (const Selected& x : plan.series) {
    double run_a = 0, run_b = -1;  // the current run of quanta (none yet)
    // Held without its windows (model.h WindowDigest): its runs of time,
    // which reach at least the quanta its windows do.
    std::vector<Window> from_runs;
    if (x.series->digest)
      for (const WindowDigest::Run& r : x.series->digest->runs) from_runs.push_back(Window{r.start, r.end, 1, 0, 1});
    for (const Window& w : x.series->digest ? from_runs : x.series->windows) {
      if (w.total == 0) continue;  // next_busy skips them too
      const double s = w.start_ms + x.offset_ms, e = w.end_ms + x.offset_ms;
      // floor of both ends: at most one quantum too many, never too few.
      const double a = std::max(0.0, std::floor(std::min(s, e) / q) - plan.first);
      const double b = std::min(last, std::floor(e / q) - plan.first);
      if (b < a) continue;  // outside the grid
      if (run_b >= run_a && a <= run_b + gap + 1) {
        run_b = std::max(run_b, b);
        continue;
      }
      if (run_b >= run_a) sum += run_b - run_a + 1 + gap;
      run_a = a;
      run_b = b;
    }
    if (run_b >= run_a) sum += run_b - run_a + 1 + gap;
    if (sum >= static_cast<double>(plan.quanta)) return plan.quanta;
  }
  return static_cast<size_t>(sum);
}

void Sweep::next(size_t j, std::vector<double>* acc, std::vector<uint32_t>* flags, std::vector<ExtremeBins>* ext,
                 std::vector<std::vector<uint64_t>>* raw) {
  if (raw) {
    raw->resize(plan_.groups.size());
    for (std::vector<uint64_t>& r : *raw) r.clear();
  }
  const size_t k = plan_.layout ? plan_.layout->size() : 0;
  // Only what the last call added is cleared: with hundreds of groups and
  // thousands of bins, clearing all of acc per quantum cost more than the adding.
  const bool wide = k >= kWideLayoutBins;
  if (acc->size() != plan_.groups.size() * k || touched_.size() != plan_.groups.size()) {
    acc->assign(plan_.groups.size() * k, 0.0);
    touched_.assign(plan_.groups.size(), ExtremeBins());
    occupied_.assign(plan_.groups.size(), {});
  }
  for (size_t g = 0; g < touched_.size(); ++g) {
    double* row = acc->data() + g * k;
    if (wide) {
      for (uint32_t bin : occupied_[g]) row[bin] = 0;
      occupied_[g].clear();
    } else if (touched_[g].any()) {
      std::fill(row + touched_[g].lo, row + touched_[g].hi + 1, 0.0);
    }
    touched_[g] = ExtremeBins();
  }
  flags->assign(plan_.groups.size(), 0);
  ext->assign(plan_.groups.size(), ExtremeBins());
  if (keep_own_) own_.assign(plan_.groups.size(), ExtremeBins());
  // (index) x Q, as the streaming fold computes it (stream.cc): same bits.
  const double a = (plan_.first + static_cast<double>(j)) * plan_.quantum_ms;
  const double b = a + plan_.quantum_ms;
  for (size_t si = 0; si < plan_.series.size(); ++si) {
    const Selected& x = plan_.series[si];
    if (a < x.full_start || b > x.full_end) (*flags)[x.group] |= kFlagPartial;
    if (finer_than_interval(x.interval_ms, plan_.quantum_ms) && a < x.cover_end && b > x.cover_start)
      (*flags)[x.group] |= kFlagFiner;
    const std::vector<Window>& w = windows_of(si);
    size_t& c = cursor_[si];
    // Windows ending at or before a cannot reach this quantum or later ones.
    // An instant (t, t] at t == a belongs to this quantum (a <= t < b).
    while (c < w.size() && (w[c].end_ms + x.offset_ms < a ||
                            (w[c].end_ms + x.offset_ms == a && w[c].end_ms > w[c].start_ms)))
      io_at_[si] += w[c++].total;
    uint64_t io = io_at_[si];
    double* g = acc->data() + x.group * k;
    // docs/extremes.md, "Each series on its own": the series' windows whose
    // midpoint lies in the quantum (own), else every bin it adds here (seen).
    ExtremeBins own, seen;
    for (size_t i = c; i < w.size(); ++i) {
      const uint64_t io_first = io;  // window i's first I/O in io_ns (per-I/O series)
      io += w[i].total;
      const double s = w[i].start_ms + x.offset_ms, e = w[i].end_ms + x.offset_ms;
      if (s >= b) break;
      Share share;
      if (e > s) {
        if (!share.set(s, e, a, b)) continue;
      } else {
        if (!(e >= a && e < b)) continue;  // an instant
        if (raw && x.series->has_io_values()) {
          const uint64_t* v = x.series->io_ns.data() + io_first;
          (*raw)[x.group].insert((*raw)[x.group].end(), v, v + w[i].total);
        }
      }
      // docs/extremes.md: only the quantum holding a window's midpoint carries its extremes.
      std::vector<uint32_t>* occupied = wide ? &occupied_[x.group] : nullptr;
      const size_t had = occupied ? occupied->size() : 0;
      if (!x.series->line_at.empty()) {
        if (decoded_.size() != plan_.series.size()) decoded_.resize(plan_.series.size());
        scratch_.kept = &decoded_[si];
      }
      if (fed_[si].on) {
        scratch_.fed = true;
        scratch_.fed_wi = fed_[si].base + i;
        scratch_.fed_line = fed_[si].line[i];
        const WindowBins& got = fed_[si].bins[i];  // none given: read again from its line
        scratch_.fed_bins = got.bins.size() == w[i].n && got.counts.size() == w[i].n ? &got : nullptr;
      }
      add_window(x, w[i], share, g, &scratch_, counts_for_extremes(s, e, a, b) ? &own : nullptr, &seen, occupied);
      scratch_.kept = nullptr;
      scratch_.fed = false;
      scratch_.fed_bins = nullptr;
      if (occupied) keep_ascending(occupied, had);
    }
    touched_[x.group].add(seen);
    if (keep_own_) own_[x.group].add(own);
    (*ext)[x.group].add(series_extremes(*x.series, own, seen));
  }
  if (wide)
    for (std::vector<uint32_t>& o : occupied_) o.erase(std::unique(o.begin(), o.end()), o.end());
}

void Sweep::start_at(size_t si, size_t wi) {
  const std::vector<Window>& w = windows_of(si);
  wi = std::min(wi, w.size());
  if (wi <= cursor_[si]) return;
  if (plan_.series[si].series->has_io_values())  // window wi's first I/O in io_ns
    for (size_t i = cursor_[si]; i < wi; ++i) io_at_[si] += w[i].total;
  cursor_[si] = wi;
}

void Sweep::keep_ascending(std::vector<uint32_t>* o, size_t had) {
  // A window lists its bins in ascending order (Series::data), so the list
  // is ascending runs, one per window: merging each run in costs less than
  // sorting the whole per quantum. A run out of order (a correction or a
  // re-binning might give one) is sorted first.
  const auto mid = o->begin() + static_cast<std::ptrdiff_t>(had);
  if (!std::is_sorted(mid, o->end())) std::sort(mid, o->end());
  if (had == 0 || mid == o->end() || !(*mid < *(mid - 1))) return;
  merged_.resize(o->size());
  std::merge(o->begin(), mid, mid, o->end(), merged_.begin());
  o->swap(merged_);
}

}  // namespace latscope
