// The page's SLA field: its rules, their judgement over the percentiles
// query's rows and the sentences the page shows (sla_field.h).
#include "latscope/sla_field.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "latscope/report.h"

namespace latscope {
namespace {

// JavaScript's \s outside ASCII, in UTF-8 (the page's rule.replace(/\s+/g)).
size_t unicode_space_len(const std::string& s, size_t i) {
  static const char* const kSpaces[] = {"\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82",
                                        "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87",
                                        "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9",
                                        "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80", "\xef\xbb\xbf"};
  for (const char* sp : kSpaces) {
    const size_t n = std::strlen(sp);
    if (s.compare(i, n, sp) == 0) return n;
  }
  return 0;
}

bool ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

size_t space_len(const std::string& s, size_t i) { return ascii_space(s[i]) ? 1 : unicode_space_len(s, i); }

// text.trim(): the rule as the user typed it, for the messages.
std::string trimmed(const std::string& s) {
  size_t a = 0, b = s.size();
  for (size_t n; a < b && (n = space_len(s, a)) > 0;) a += n;
  while (b > a) {
    size_t k = b - 1;
    while (k > a && (static_cast<unsigned char>(s[k]) & 0xc0) == 0x80) --k;  // the last character's first byte
    if (space_len(s, k) != b - k) break;
    b = k;
  }
  return s.substr(a, b - a);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

size_t digits(const std::string& s, size_t i) {
  size_t k = i;
  while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
  return k - i;
}

// /^(p\d+(?:\.\d+)?|max)?(<=|<)?(\d+(?:\.\d+)?|\.\d+)(ns|us|ms|s)?$/i on t.
bool match_rule(const std::string& t, std::string* what, std::string* op, std::string* number, std::string* unit) {
  size_t i = 0;
  if (t.size() >= 3 && lower(t[0]) == 'm' && lower(t[1]) == 'a' && lower(t[2]) == 'x') {
    *what = "max";
    i = 3;
  } else if (!t.empty() && lower(t[0]) == 'p' && digits(t, 1) > 0) {
    i = 1 + digits(t, 1);
    if (i < t.size() && t[i] == '.' && digits(t, i + 1) > 0) i += 1 + digits(t, i + 1);
    *what = "p" + t.substr(1, i - 1);
  }
  if (t.compare(i, 2, "<=") == 0) {
    *op = "<=";
    i += 2;
  } else if (i < t.size() && t[i] == '<') {
    *op = "<";
    ++i;
  }
  const size_t n0 = i;
  if (digits(t, i) > 0) {
    i += digits(t, i);
    if (i < t.size() && t[i] == '.' && digits(t, i + 1) > 0) i += 1 + digits(t, i + 1);
  } else if (i < t.size() && t[i] == '.' && digits(t, i + 1) > 0) {
    i += 1 + digits(t, i + 1);
  } else {
    return false;
  }
  *number = t.substr(n0, i - n0);
  std::string u;
  for (size_t k = i; k < t.size(); ++k) u += lower(t[k]);
  if (!(u.empty() || u == "ns" || u == "us" || u == "ms" || u == "s")) return false;
  *unit = u;
  return true;
}

double unit_ns(const std::string& u) {
  if (u == "ns") return 1;
  if (u == "us") return 1e3;
  if (u == "ms") return 1e6;
  if (u == "s") return 1e9;
  return 0;
}

// The decimal digits of |v| to 3 significant digits, rounded as
// Number.prototype.toPrecision rounds (of two as close, the larger), and the
// power of ten of the first: 0.0123456 -> "123", -2.
void three_digits(double a, std::string* d, int* exp10) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.40e", a);  // d.ddd...e±XX, exact far beyond a double's ties
  const char* e = std::strchr(buf, 'e');
  *exp10 = std::atoi(e + 1);
  std::string m(buf, static_cast<size_t>(e - buf));
  m.erase(1, 1);  // the point
  std::string keep = m.substr(0, 3);
  const std::string rest = m.substr(3);
  const bool up = rest[0] >= '5';  // a tie (5000...) rounds up too
  if (up) {
    int k = 2;
    while (k >= 0 && keep[static_cast<size_t>(k)] == '9') keep[static_cast<size_t>(k--)] = '0';
    if (k < 0) {
      keep = "100";
      ++*exp10;
    } else {
      ++keep[static_cast<size_t>(k)];
    }
  }
  *d = keep;
}

// Number.prototype.toString of the value whose digits are d (no trailing
// zeros) times 10^(n - len(d)) (ECMA-262 Number::toString).
std::string js_number_text(std::string d, int n) {
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  const int k = static_cast<int>(d.size());
  if (k <= n && n <= 21) return d + std::string(static_cast<size_t>(n - k), '0');
  if (0 < n && n <= 21) return d.substr(0, static_cast<size_t>(n)) + "." + d.substr(static_cast<size_t>(n));
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<size_t>(-n), '0') + d;
  const int e = n - 1;
  const std::string exp = (e < 0 ? "e-" : "e+") + std::to_string(std::abs(e));
  return k == 1 ? d + exp : d.substr(0, 1) + "." + d.substr(1) + exp;
}

std::string json_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return std::isfinite(v) ? std::string(buf) : std::string("null");
}

std::string outcome_json(const std::string& group, const SlaGroupOutcome& o, const std::string& sentence) {
  return "{\"group\":" + json_escape(group) + ",\"evaluated\":" + std::to_string(o.evaluated) +
         ",\"violated\":" + std::to_string(o.violated) + ",\"few\":" + std::to_string(o.few) +
         ",\"sentence\":" + json_escape(sentence) + "}";
}

std::string rule_json(const SlaFieldRule& r) {
  return "{\"text\":" + json_escape(r.text) + ",\"what\":" + json_escape(r.what) +
         ",\"p\":" + (r.has_p ? json_number(r.p) : std::string("null")) + ",\"strict\":" + (r.strict ? "true" : "false") +
         ",\"threshold\":" + json_number(r.threshold) + ",\"unit\":" + json_escape(r.unit) +
         ",\"threshold_ns\":" + json_number(r.threshold_ns) + ",\"label\":" + json_escape(sla_field_label(r)) + "}";
}

}  // namespace

std::string page_number(double v) {
  if (!std::isfinite(v)) return "\xe2\x80\x93";  // –
  const double a = std::fabs(v);
  if (a >= 100) {
    // d3.format(',.0f'): toFixed(0) (ties up), thousands grouped, d3's minus sign.
    const double fl = std::floor(a);
    const double n = a - fl >= 0.5 ? fl + 1 : fl;
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", n);
    std::string digits_text = buf, out;
    for (size_t i = 0; i < digits_text.size(); ++i) {
      if (i && (digits_text.size() - i) % 3 == 0) out += ',';
      out += digits_text[i];
    }
    return (v < 0 ? "\xe2\x88\x92" : "") + out;  // U+2212
  }
  if (a == 0) return "0";
  std::string d;
  int e = 0;
  three_digits(a, &d, &e);
  return (v < 0 ? "-" : "") + js_number_text(d, e + 1);
}

Status parse_sla_field_rule(const std::string& text, const std::string& default_unit, SlaFieldRule* out) {
  std::string t;
  for (size_t i = 0; i < text.size();) {
    if (const size_t n = space_len(text, i)) {
      i += n;
    } else if (text.compare(i, 3, "\xc2\xb5s") == 0) {  // µs
      t += "us";
      i += 3;
    } else {
      t += text[i++];
    }
  }
  const std::string shown = trimmed(text);
  auto bad = [&](const std::string& why) { return Status::Error(ErrorCode::kInvalidArgument, why); };
  std::string what, op, number, unit;
  if (!match_rule(t, &what, &op, &number, &unit))
    return bad("\"" + shown + "\" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s");
  SlaFieldRule r;
  r.what = what;
  if (!what.empty() && what != "max") {
    r.has_p = true;
    r.p = std::strtod(what.c_str() + 1, nullptr);
    if (!(r.p >= 0 && r.p <= 100)) return bad("\"" + shown + "\": " + what + " is not a percentile between 0 and 100");
  }
  r.strict = op == "<";
  if (unit.empty())
    for (char c : default_unit) unit += lower(c);
  r.unit = unit;
  r.number = number;
  r.threshold = std::strtod(number.c_str(), nullptr);
  if (!(r.threshold > 0) || unit_ns(unit) == 0)
    return bad("\"" + shown + "\": the threshold must be a positive number of ns, us, ms or s");
  r.threshold_ns = r.threshold * unit_ns(unit);
  r.text = what + (r.strict ? "<" : "<=") + number + unit;
  *out = r;
  return Status::Ok();
}

Status parse_sla_field(const std::string& text, const std::string& default_unit, std::vector<SlaFieldRule>* out) {
  out->clear();
  std::string cur;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',' && text[i] != ';') {
      cur += text[i];
      continue;
    }
    if (!trimmed(cur).empty()) {
      SlaFieldRule r;
      Status st = parse_sla_field_rule(trimmed(cur), default_unit, &r);
      if (!st.ok()) return st;
      out->push_back(r);
    }
    cur.clear();
  }
  return Status::Ok();
}

std::string sla_field_label(const SlaFieldRule& r) {
  return (r.what.empty() ? "" : r.what + " ") + (r.strict ? "<" : "\xe2\x89\xa4") + " " + page_number(r.threshold) + " " +
         (r.unit == "us" ? "\xc2\xb5s" : r.unit);
}

SlaFieldJudge::SlaFieldJudge(const std::vector<SlaFieldRule>& rules, const std::vector<double>& percentiles,
                             const std::vector<std::string>& labels) {
  for (const SlaFieldRule& r : rules) {
    SlaFieldVerdict v;
    v.rule = r;
    if (r.what == "max") {
      v.is_max = true;
      v_.push_back(v);
    } else if (!r.has_p) {
      // One rule per shown percentile, named as the page names it (p100 for max).
      for (size_t i = 0; i < percentiles.size(); ++i) {
        SlaFieldVerdict e = v;
        e.rule.what = percentiles[i] == 100 ? "p100" : (i < labels.size() ? labels[i] : "");
        e.rule.has_p = true;
        e.rule.p = percentiles[i];
        e.pi = static_cast<int>(i);
        v_.push_back(e);
      }
    } else {
      for (size_t i = 0; i < percentiles.size() && v.pi < 0; ++i)
        if (percentiles[i] == r.p) v.pi = static_cast<int>(i);
      v_.push_back(v);
    }
  }
}

void SlaFieldJudge::add(const Row& row) {
  if (quanta_ == 0 || row.t_ms != last_t_) ++quanta_;  // rows come by time, then group
  last_t_ = row.t_ms;
  const size_t base = marks_.size();
  if (marking_) marks_.resize(base + v_.size(), 0);
  for (size_t k = 0; k < v_.size(); ++k) {
    SlaFieldVerdict& v = v_[k];
    if (!v.is_max && v.pi < 0) continue;  // a percentile the query lacks: nothing to judge
    double x = 0;
    bool few = false, sat = false;
    if (!sla_row_value(row, v.is_max, v.is_max ? 0 : static_cast<size_t>(v.pi), &x, &few, &sat)) continue;
    if (std::isnan(x)) continue;  // no value to show, none to judge
    if (v.groups.size() <= row.group) v.groups.resize(row.group + size_t{1});
    SlaGroupOutcome& o = v.groups[row.group];
    ++o.evaluated;
    if (few) ++o.few;
    if (sla_violates(x, v.rule.strict, v.rule.threshold_ns)) {
      ++o.violated;
      if (marking_) marks_[base + k] = 1;
    }
  }
}

std::vector<SlaFieldVerdict> SlaFieldJudge::take(size_t ngroups) {
  for (SlaFieldVerdict& v : v_) {
    v.groups.resize(ngroups);
    v.total = {};
    for (const SlaGroupOutcome& o : v.groups) {
      v.total.evaluated += o.evaluated;
      v.total.violated += o.violated;
      v.total.few += o.few;
    }
  }
  return std::move(v_);
}

std::string sla_field_sentence(const SlaFieldVerdict& v, const std::string& group, const SlaGroupOutcome& o,
                               double quantum_ms, size_t groups, uint64_t quanta) {
  const std::string label = sla_field_label(v.rule);
  if (!o.evaluated) return group + ": " + label + ": no quantum has samples to judge";
  const std::string q = !(quantum_ms > 0) ? "adaptive"
                        : quantum_ms >= 1000 ? "of " + page_number(quantum_ms / 1000) + " s"
                                             : "of " + page_number(quantum_ms) + " ms";
  // The CLI's percentage: tenths, rounded half up (Math.round), shown as the page shows numbers.
  const double tenths = 1000.0 * static_cast<double>(o.violated) / static_cast<double>(o.evaluated);
  const double fl = std::floor(tenths);
  const double pct = (tenths - fl >= 0.5 ? fl + 1 : fl) / 10;
  std::string s = group + ": " + label + " violated in " + sla_judged_text(o.violated, o.evaluated, groups, quanta, q) +
                  " (" + page_number(pct) + "%)";
  if (o.few) s += "; " + std::to_string(o.few) + " with few samples for " + v.rule.what;
  return s;
}

std::string sla_field_rules_json(const std::vector<SlaFieldRule>& rules) {
  std::string out = "{\"rules\":[";
  for (size_t i = 0; i < rules.size(); ++i) out += (i ? "," : "") + rule_json(rules[i]);
  return out + "]}";
}

std::string sla_field_json(const std::vector<SlaFieldVerdict>& v, const std::vector<std::string>& groups,
                           double quantum_ms, uint64_t quanta) {
  std::string out = "{\"verdicts\":[";
  for (size_t k = 0; k < v.size(); ++k) {
    const SlaFieldVerdict& x = v[k];
    out += (k ? ",{" : "{") + std::string("\"rule\":") + rule_json(x.rule) + ",\"pi\":" + std::to_string(x.pi) +
           ",\"max\":" + (x.is_max ? "true" : "false") + ",\"groups\":[";
    for (size_t g = 0; g < x.groups.size() && g < groups.size(); ++g)
      out += (g ? "," : "") + outcome_json(groups[g], x.groups[g], sla_field_sentence(x, groups[g], x.groups[g], quantum_ms));
    const std::string all = "all groups";
    out += "],\"total\":" +
           outcome_json(all, x.total, sla_field_sentence(x, all, x.total, quantum_ms, groups.size(), quanta)) + "}";
  }
  return out + "]}";
}

}  // namespace latscope
