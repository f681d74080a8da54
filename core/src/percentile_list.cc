// The one reader of percentile lists (percentile_list.h; docs/cli.md,
// "Percentile lists"): the CLI's --percentiles and the page's field and
// links, so both accept the same lists and name a bad item the same way.
#include "latscope/percentile_list.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "latscope/report.h"  // percentile_label
#include "latscope/text.h"

namespace latscope {
namespace {

bool is_sep(char c) { return c == ',' || c == ';' || c == ' ' || c == '\t'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_word(const std::string& s, const char* word) {
  size_t i = 0;
  for (; word[i] != '\0'; ++i) {
    if (i >= s.size() || lower(s[i]) != word[i]) return false;
  }
  return i == s.size();
}


Status bad_item(const std::string& item, size_t index, size_t column, const std::string& why) {
  return Status::Error(ErrorCode::kInvalidArgument, "percentile \"" + item + "\" (item " + std::to_string(index) +
                                                        ", column " + std::to_string(column) + ") " + why);
}

Status read_item(const std::string& item, size_t index, size_t column, PercentileItem* out) {
  if (same_word(item, "max")) {
    *out = {100, "100"};
    return Status::Ok();
  }
  if (same_word(item, "median")) {
    *out = {50, "50"};
    return Status::Ok();
  }
  std::string number = item;
  if (!number.empty() && lower(number[0]) == 'p') number.erase(0, 1);
  if (!plain_percentile_number(number)) {
    return bad_item(item, index, column, "is not a percentile: write a number from 0 to 100 (99.9 or p99.9), max or median");
  }
  const double v = std::strtod(number.c_str(), nullptr);
  if (!(v >= 0 && v <= 100)) return bad_item(item, index, column, "is over 100: a percentile is from 0 to 100");
  *out = {v, number};
  return Status::Ok();
}

}  // namespace

// Digits with at most one '.' and at least one digit ("99.9", "5.", ".5"):
// what --percentiles has always read. Long texts are refused before strtod.
bool plain_percentile_number(const std::string& s) {
  if (s.empty() || s.size() > 40) return false;
  int dots = 0, digits = 0;
  for (char c : s) {
    if (c == '.') ++dots;
    else if (c >= '0' && c <= '9') ++digits;
    else return false;
  }
  return dots <= 1 && digits > 0;
}

Status read_percentile_items(const std::string& text, std::vector<PercentileItem>* out, bool allow_empty) {
  std::vector<PercentileItem> items;
  size_t i = 0;
  while (i < text.size()) {
    if (is_sep(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && !is_sep(text[end])) ++end;
    PercentileItem item;
    Status st = read_item(text.substr(i, end - i), items.size() + 1, i + 1, &item);
    if (!st.ok()) return st;
    items.push_back(std::move(item));
    i = end;
  }
  if (items.empty() && !allow_empty) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "no percentile in \"" + text + "\": write a list like 50,99,99.9 (or p99 max median)");
  }
  *out = std::move(items);
  return Status::Ok();
}

Status parse_percentile_list(const std::string& text, std::vector<double>* ps, std::vector<std::string>* labels) {
  std::vector<PercentileItem> items;
  Status st = read_percentile_items(text, &items);
  if (!st.ok()) return st;
  ps->clear();
  labels->clear();
  for (const PercentileItem& it : items) {
    ps->push_back(it.p);
    labels->push_back(percentile_label(it.text));
  }
  return Status::Ok();
}

Status page_percentile_list(const std::string& presets, const std::string& field, std::vector<PercentileItem>* out) {
  std::vector<PercentileItem> all, more;
  Status st = read_percentile_items(presets, &all, true);
  if (st.ok()) st = read_percentile_items(field, &more, true);
  if (!st.ok()) return st;
  all.insert(all.end(), more.begin(), more.end());
  if (all.empty()) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "no percentile chosen: check one or write a list like 99.95 99.99 (or p99 max median)");
  }
  // Stable: of two spellings of one value ("99.9", "99.90") the first stays.
  std::stable_sort(all.begin(), all.end(), [](const PercentileItem& a, const PercentileItem& b) { return a.p < b.p; });
  std::vector<PercentileItem> one;
  for (PercentileItem& it : all) {
    if (one.empty() || one.back().p != it.p) one.push_back(std::move(it));
  }
  *out = std::move(one);
  return Status::Ok();
}

std::string percentile_items_json(const std::vector<PercentileItem>& items) {
  std::string texts, values;
  for (const PercentileItem& it : items) {
    texts += (texts.empty() ? "" : ",") + json_escape(it.text);
    values += (values.empty() ? "" : ",") + format_number(it.p);
  }
  return "{\"percentiles\":[" + texts + "],\"values\":[" + values + "]}";
}

}  // namespace latscope
