// pctiles_columns (latscope/report.h) carries exactly what pctiles_json
// carries: on real fio logs, every row's numbers written through the same
// formatter equal the JSON's tokens, nulls are NaN, flags are the same texts,
// and the meta JSON is the JSON without its rows. The page draws from the
// columns (docs/page-speed.md "Speed with many groups"); its CSV stays the
// engine's pctiles_csv, so this is what keeps the drawing and the numbers
// that leave in step.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "json/json.h"
#include "latscope/options_json.h"
#include "latscope/report.h"

namespace latscope {
namespace {

// The JSON token a column value stands for.
std::string token_of(double v) { return std::isnan(v) ? "null" : format_number(v); }

std::string token_of(const json::Value& v) { return v.is_null() ? "null" : v.number_text(); }

// How many null values and flagged rows the query had (so each test can
// say it covered them).
struct Seen {
  size_t nulls = 0;
  size_t flagged = 0;
};

void expect_same(const Engine& engine, const std::string& options_json, Seen* seen) {
  SCOPED_TRACE(options_json);
  QueryOptions opts;
  std::vector<std::string> labels;
  Unit unit = Unit::kUs;
  ASSERT_TRUE(parse_query_options_json(options_json, &opts, &labels, &unit).ok());
  QueryResult r;
  ASSERT_TRUE(engine.query(opts, &r).ok());
  ASSERT_FALSE(r.rows.empty());
  const std::string text = pctiles_json(r, labels, unit);
  const PctilesColumns c = pctiles_columns(r, labels, unit);
  json::Value doc;
  ASSERT_TRUE(json::parse(text, "pctiles_json", &doc).ok());
  const json::Value* rows = doc.find("rows");
  ASSERT_NE(rows, nullptr);
  const size_t n = rows->size();
  const size_t np = labels.size();
  ASSERT_EQ(c.t_ms.size(), n);
  ASSERT_EQ(c.p.size(), n * np);
  ASSERT_EQ(c.width_ms.size(), r.adaptive ? n : 0);
  size_t nulls = 0;
  size_t flagged = 0;
  for (size_t i = 0; i < n; ++i) {
    const json::Value& row = rows->items()[i];
    SCOPED_TRACE("row " + std::to_string(i));
    EXPECT_EQ(token_of(c.t_ms[i]), token_of(*row.find("t_ms")));
    if (r.adaptive) {
      EXPECT_EQ(token_of(c.width_ms[i]), token_of(*row.find("width_ms")));
    }
    EXPECT_EQ(r.groups.at(c.group[i]), row.find("group")->as_string());
    EXPECT_EQ(token_of(c.samples[i]), token_of(*row.find("samples")));
    EXPECT_EQ(token_of(c.min[i]), token_of(*row.find("min")));
    EXPECT_EQ(token_of(c.mean[i]), token_of(*row.find("mean")));
    EXPECT_EQ(token_of(c.max[i]), token_of(*row.find("max")));
    const std::pair<const char*, const std::vector<double>*> lists[] = {{"p", &c.p}, {"err", &c.err}, {"lo", &c.lo}, {"hi", &c.hi}};
    for (const auto& [key, col] : lists) {
      const json::Value* list = row.find(key);
      ASSERT_EQ(list->size(), np);
      for (size_t j = 0; j < np; ++j) {
        EXPECT_EQ(token_of((*col)[i * np + j]), token_of(list->items()[j])) << key << "[" << j << "]";
        nulls += list->items()[j].is_null();
      }
    }
    ASSERT_LT(c.flag[i], c.flag_texts.size());
    EXPECT_EQ(c.flag_texts[c.flag[i]], row.find("flags")->as_string());
    flagged += c.flag[i] != 0;
  }
  // The meta text is the JSON with an empty "rows" array.
  const size_t a = text.find("\"rows\":[") + 8;
  const size_t b = text.rfind("],\"notes\":[");
  ASSERT_LT(a, b);
  EXPECT_EQ(pctiles_meta_json(r, labels, unit), text.substr(0, a) + text.substr(b));
  seen->nulls += nulls;
  seen->flagged += flagged;

  // The same query with its rows handed to a sink, straight into the
  // columns (what the page's worker does): the same columns, bit for bit,
  // the same meta, and no rows kept.
  struct Counted : RowSink {
    explicit Counted(PctilesColumnsBuilder* to) : b(to) {}
    void expect(size_t rows) override {
      expected = rows;
      b->expect(rows);
    }
    void add(const Row& row) override {
      b->add(row);
      ++handed;
    }
    PctilesColumnsBuilder* b;
    size_t expected = 0, handed = 0;
  };
  PctilesColumnsBuilder builder(labels, unit);
  Counted sink(&builder);
  QueryResult sunk;
  ASSERT_TRUE(engine.query(opts, &sunk, &sink).ok());
  EXPECT_TRUE(sunk.rows.empty());
  EXPECT_EQ(sink.handed, n);
  EXPECT_GE(sink.expected, n);  // the columns were made at their size once
  const PctilesColumns d = builder.take(sunk.adaptive);
  const auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])))) return false;
    return true;
  };
  EXPECT_TRUE(same(d.t_ms, c.t_ms) && same(d.width_ms, c.width_ms) && same(d.samples, c.samples) &&
              same(d.min, c.min) && same(d.mean, c.mean) && same(d.max, c.max));
  EXPECT_TRUE(same(d.p, c.p) && same(d.err, c.err) && same(d.lo, c.lo) && same(d.hi, c.hi));
  EXPECT_EQ(d.group, c.group);
  EXPECT_EQ(d.flag, c.flag);
  EXPECT_EQ(d.flag_texts, c.flag_texts);
  EXPECT_EQ(pctiles_meta_json(sunk, labels, unit), pctiles_meta_json(r, labels, unit));
}

TEST(PctilesColumns, EqualPctilesJsonOnRealLogs) {
  Engine engine;
  ASSERT_TRUE(fixtures::load(&engine, fixtures::files_of("local", "_clat_hist"), FileOptions{}));
  ASSERT_TRUE(fixtures::load(&engine, fixtures::files_of("cs", "_clat_hist"), FileOptions{}));
  Seen seen;
  expect_same(engine, R"({"percentiles":[50,99,99.9,99.99,100],"unit":"us"})", &seen);
  expect_same(engine, R"({"percentiles":[50,99.9],"unit":"ms","quantum_ms":250,"group_by":["host","job"]})", &seen);
  expect_same(engine, R"({"percentiles":[90,99.999],"unit":"ns","quantum_ms":5000,"group_by":["file"]})", &seen);
  expect_same(engine, R"({"percentiles":[50,99],"adaptive_accuracy":0.5,"group_by":["host"]})", &seen);
  // Empty quanta and unbounded bands (nulls), few-sample and partial quanta (flags) were among them.
  EXPECT_GT(seen.nulls, 0u);
  EXPECT_GT(seen.flagged, 0u);
}

// QueryOptions::bands false (the page's percentiles view when it cannot draw
// bands): the same values, flags and stats bit for bit; the rows say they
// carry no bands, the JSON leaves err/lo/hi out instead of writing defaults,
// and the columns have none. Adaptive quanta keep theirs (a query may leave
// them out, QueryResult::bands says which).
TEST(PctilesColumns, BandsLeftOutOnRequest) {
  Engine engine;
  ASSERT_TRUE(fixtures::load(&engine, fixtures::files_of("local", "_clat_hist"), FileOptions{}));
  ASSERT_TRUE(fixtures::load(&engine, fixtures::files_of("cs", "_clat_hist"), FileOptions{}));
  for (const std::string with : {R"({"percentiles":[50,99,99.9,100],"group_by":["host","job"]})",
                                 R"({"percentiles":[50,99.9],"unit":"ms","quantum_ms":250})"}) {
    SCOPED_TRACE(with);
    const std::string without = with.substr(0, with.size() - 1) + R"(,"bands":false})";
    QueryOptions a, b;
    std::vector<std::string> labels;
    Unit unit = Unit::kUs;
    ASSERT_TRUE(parse_query_options_json(with, &a, &labels, &unit).ok());
    ASSERT_TRUE(parse_query_options_json(without, &b, &labels, &unit).ok());
    EXPECT_TRUE(a.bands);
    EXPECT_FALSE(b.bands);
    QueryResult ra, rb;
    ASSERT_TRUE(engine.query(a, &ra).ok());
    ASSERT_TRUE(engine.query(b, &rb).ok());
    EXPECT_TRUE(ra.bands);
    EXPECT_FALSE(rb.bands);
    ASSERT_EQ(ra.rows.size(), rb.rows.size());
    ASSERT_FALSE(ra.rows.empty());
    size_t banded = 0;
    for (size_t i = 0; i < ra.rows.size(); ++i) {
      const Row &x = ra.rows[i], &y = rb.rows[i];
      ASSERT_EQ(x.t_ms, y.t_ms);
      ASSERT_EQ(x.group, y.group);
      ASSERT_EQ(x.flags, y.flags);
      EXPECT_EQ(x.stats.samples, y.stats.samples);
      ASSERT_EQ(x.p.size(), y.p.size());
      for (size_t j = 0; j < x.p.size(); ++j) {
        EXPECT_TRUE(x.p[j].value_ns == y.p[j].value_ns || (std::isnan(x.p[j].value_ns) && std::isnan(y.p[j].value_ns)));
        EXPECT_EQ(y.p[j].lo_ns, PercentileValue().lo_ns);  // not worked out
        banded += x.p[j].lo_ns != PercentileValue().lo_ns;
      }
    }
    EXPECT_GT(banded, 0u);  // the query with bands had them
    const std::string ja = pctiles_json(ra, labels, unit), jb = pctiles_json(rb, labels, unit);
    EXPECT_NE(ja.find("\"lo\":["), std::string::npos);
    EXPECT_EQ(jb.find("\"lo\":["), std::string::npos);
    EXPECT_EQ(jb.find("\"err\":["), std::string::npos);
    EXPECT_EQ(ja.find("\"bands\":"), std::string::npos);  // the JSON as before
    EXPECT_NE(pctiles_meta_json(rb, labels, unit).find("\"bands\":false"), std::string::npos);
    const PctilesColumns ca = pctiles_columns(ra, labels, unit), cb = pctiles_columns(rb, labels, unit);
    EXPECT_EQ(ca.p.size(), cb.p.size());
    EXPECT_EQ(ca.err.size(), ca.p.size());
    EXPECT_TRUE(cb.err.empty() && cb.lo.empty() && cb.hi.empty());
    // Through a sink that wants no bands, even when the options ask for them.
    PctilesColumnsBuilder builder(labels, unit, false);
    EXPECT_FALSE(builder.wants_bands());
    QueryResult sunk;
    ASSERT_TRUE(engine.query(a, &sunk, &builder).ok());
    EXPECT_FALSE(sunk.bands);
    const PctilesColumns d = builder.take(false);
    EXPECT_EQ(d.t_ms.size(), cb.t_ms.size());
    EXPECT_TRUE(d.err.empty() && d.lo.empty() && d.hi.empty());
  }
  QueryOptions adaptive;
  std::vector<std::string> labels;
  Unit unit = Unit::kUs;
  ASSERT_TRUE(parse_query_options_json(R"({"percentiles":[50,99],"adaptive_accuracy":0.5,"bands":false})", &adaptive, &labels, &unit).ok());
  QueryResult r;
  ASSERT_TRUE(engine.query(adaptive, &r).ok());
  EXPECT_TRUE(r.adaptive);
  EXPECT_TRUE(r.bands);
}

TEST(PctilesColumns, WindowAveragesAreNullPercentiles) {
  // fio per-I/O logs written with log_avg_msec: window means, no percentile
  // (flag avg): pctiles_json writes p as nulls, the columns as NaN.
  Engine engine;
  ASSERT_TRUE(fixtures::load(&engine, {fixtures::path("fio_lat/avg_clat.1.log")}, FileOptions{}));
  Seen seen;
  expect_same(engine, R"({"percentiles":[50,99]})", &seen);
  EXPECT_GT(seen.nulls, 0u);
}

}  // namespace
}  // namespace latscope
