// Percentile lists as people write them: the CLI's `--percentiles`, the
// page's percentile field and its links' p= and gp= (docs/cli.md,
// "Percentile lists"; docs/page-views.md, "Percentile field"). One grammar,
// read here only, so the two faces cannot accept different lists:
//
//   list := sep* [item (sep+ item)*] sep*       sep: ',' ';' space tab
//   item := number | 'p' number | 'max' | 'median'   (letters in any case)
//   number := digits ['.' [digits]] | '.' digits, from 0 to 100
//
// An item's text is the number as typed without its 'p' ("p99.90" ->
// "99.90", so the CSV column is "p99.90" as the CLI names it); max is "100",
// median "50". Errors name the item, its place in the list (item N,
// column C, both from 1) and what it should be.
#pragma once

#include <string>
#include <vector>

#include "latscope/status.h"

namespace latscope {

struct PercentileItem {
  double p = 0;      // in [0, 100]
  std::string text;  // "99.90", "100" for max, "50" for median
};

// A number as --percentiles has always read it: digits with at most one '.'
// and at least one digit ("99.9", "5.", ".5"), at most 40 characters.
bool plain_percentile_number(const std::string& s);

// Every item in the order written, repeats kept. allow_empty: a list with no
// item is read as none (the page's field beside its checked presets);
// otherwise it is an error.
Status read_percentile_items(const std::string& text, std::vector<PercentileItem>* out, bool allow_empty = false);

// The CLI's --percentiles: values and column labels ("p" + text) in the
// order given, repeats kept (each is a column). At least one item.
Status parse_percentile_list(const std::string& text, std::vector<double>* ps, std::vector<std::string>* labels);

// The page's percentiles: the checked presets, then the field's items
// (either may be empty), sorted by value, one item per value (the first
// spelling of a value wins: a preset's over the field's). At least one in
// all. Errors name the field's items (the presets are the page's own).
Status page_percentile_list(const std::string& presets, const std::string& field, std::vector<PercentileItem>* out);

// {"percentiles": ["50", "99.9"], "values": [50, 99.9]} for the page.
std::string percentile_items_json(const std::vector<PercentileItem>& items);

}  // namespace latscope
