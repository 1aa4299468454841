// `orca params [--json]`: the parameter table (orca/parameters.hpp) as plain text or JSON.
#include <algorithm>
#include <array>
#include <ostream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/parameters.hpp"

namespace orca::cli {

namespace {

/// A number as JSON: an integer when the row is one (or the value is integral and small).
Json number(double v, bool integer) {
    if (integer) return static_cast<std::int64_t>(v);
    return v;
}

/// A range as JSON Schema bounds: minimum / exclusiveMinimum, maximum / exclusiveMaximum;
/// infinite ends are left out.
Json rangeJson(const ParamRange& r, bool integer) {
    Json out = Json::object();
    if (r.hasMin()) out[r.minOpen ? "exclusiveMinimum" : "minimum"] = number(r.min, integer);
    if (r.hasMax()) out[r.maxOpen ? "exclusiveMaximum" : "maximum"] = number(r.max, integer);
    return out;
}

Json rowJson(const ParamRow& row) {
    const bool integer = row.kind == ParamKind::Integer;
    Json j = Json::object();
    j["name"] = row.name;
    j["scope"] = scopeName(row.scope);
    j["kind"] = kindName(row.kind);
    if (row.kind != ParamKind::Boolean) {
        j["range"] = rangeJson(row.range, integer);
        j["fileRange"] = rangeJson(row.fileRange, integer);
    }
    if (row.kind == ParamKind::Boolean)
        j["default"] = row.defaultValue != 0.0;
    else
        j["default"] = number(row.defaultValue, integer);
    j["unit"] = row.unit;
    j["doc"] = row.doc;
    Json ui = Json::object();
    ui["label"] = row.ui.label;
    if (row.kind != ParamKind::Boolean) {
        ui["min"] = number(row.ui.min, integer);
        ui["max"] = number(row.ui.max, integer);
        ui["speed"] = row.ui.speed;
        ui["decimals"] = row.ui.decimals;
    }
    j["ui"] = ui;
    return j;
}

std::string textOf(const ParamRow& row, double v) {
    if (row.kind == ParamKind::Boolean) return v != 0.0 ? "true" : "false";
    return formatValue(v);
}

std::string rangeText(const ParamRow& row, const ParamRange& r) {
    return row.kind == ParamKind::Boolean ? "false|true" : formatRange(r);
}

} // namespace

int paramsCommand(const ParamsOptions& opt, std::ostream& out, std::ostream& /*err*/) {
    if (opt.json) {
        Json j = Json::object();
        j["format"] = "orca-params";
        j["version"] = 1;
        Json rows = Json::array();
        for (const ParamRow& row : parameterTable())
            rows.push_back(rowJson(row));
        j["parameters"] = rows;
        out << dumpJson(j) << '\n';
        return kOk;
    }
    // Plain text: one row per parameter, columns padded to their widest cell (the doc, the
    // only column that may hold non-ASCII text, comes last).
    std::vector<std::array<std::string, 7>> cells;
    cells.push_back({"NAME", "KIND", "RANGE", "FILE RANGE", "DEFAULT", "UNIT", "DOC"});
    for (const ParamRow& row : parameterTable()) {
        cells.push_back({qualifiedName(row), std::string(kindName(row.kind)),
                         rangeText(row, row.range), rangeText(row, row.fileRange),
                         textOf(row, row.defaultValue),
                         row.unit.empty() ? "-" : std::string(row.unit), std::string(row.doc)});
    }
    std::array<std::size_t, 7> width{};
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < width.size(); ++c)
            width[c] = std::max(width[c], line[c].size());
    }
    for (const auto& line : cells) {
        std::string text;
        for (std::size_t c = 0; c < width.size(); ++c) {
            text += line[c];
            if (c + 1 < width.size()) text += std::string(width[c] - line[c].size() + 2, ' ');
        }
        out << text << '\n';
    }
    return kOk;
}

} // namespace orca::cli
