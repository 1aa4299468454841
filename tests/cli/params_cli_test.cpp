// `orca params [--json]`: the parameter table (orca/parameters.hpp) as text and JSON, and
// scripts/make_scenes.py's defaults held to it (--check-params).
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "orca/parameters.hpp"

namespace orca::testing {
namespace {

using ParamsCli = CliFixture;

TEST_F(ParamsCli, TextTableHasOneLinePerRow) {
    const Result r = orca("params");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_EQ(line.rfind("NAME", 0), 0u) << line;
    EXPECT_NE(line.find("FILE RANGE"), std::string::npos) << line;
    for (const ParamRow& row : parameterTable()) {
        ASSERT_TRUE(std::getline(lines, line)) << row.name;
        EXPECT_EQ(line.rfind(qualifiedName(row) + "  ", 0), 0u) << line;
        EXPECT_NE(line.find(std::string(row.doc)), std::string::npos) << line;
        if (row.kind != ParamKind::Boolean) {
            std::string range = " ";
            range += formatRange(row.range);
            range += ' ';
            EXPECT_NE(line.find(range), std::string::npos) << line;
        }
    }
    EXPECT_FALSE(std::getline(lines, line)) << "extra line: " << line;
    const std::string timeStep = r.out.substr(r.out.find("\nsimulation.timeStep"));
    EXPECT_NE(timeStep.find("(0, inf)"), std::string::npos);
    EXPECT_NE(timeStep.find("(0, 1e7]"), std::string::npos);
    EXPECT_NE(timeStep.find("0.25"), std::string::npos);
}

TEST_F(ParamsCli, JsonIsTheTable) {
    const Result r = orca("params --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("format"), "orca-params");
    EXPECT_EQ(j.at("version"), 1);
    const nlohmann::json& rows = j.at("parameters");
    ASSERT_EQ(rows.size(), parameterTable().size());
    std::size_t i = 0;
    for (const ParamRow& row : parameterTable()) {
        const nlohmann::json& o = rows[i++];
        SCOPED_TRACE(std::string(row.name));
        EXPECT_EQ(o.at("name"), std::string(row.name));
        EXPECT_EQ(o.at("scope"), std::string(scopeName(row.scope)));
        EXPECT_EQ(o.at("kind"), std::string(kindName(row.kind)));
        EXPECT_EQ(o.at("unit"), std::string(row.unit));
        EXPECT_EQ(o.at("doc"), std::string(row.doc));
        EXPECT_EQ(o.at("ui").at("label"), std::string(row.ui.label));
        if (row.kind == ParamKind::Boolean) {
            EXPECT_EQ(o.at("default"), row.defaultValue != 0.0);
            EXPECT_FALSE(o.contains("range"));
            continue;
        }
        EXPECT_EQ(o.at("default").get<double>(), row.defaultValue);
        EXPECT_EQ(o.at("ui").at("min").get<double>(), row.ui.min);
        EXPECT_EQ(o.at("ui").at("max").get<double>(), row.ui.max);
        for (const auto& [key, range] :
             {std::pair<const char*, const ParamRange*>{"range", &row.range},
              std::pair<const char*, const ParamRange*>{"fileRange", &row.fileRange}}) {
            const nlohmann::json& b = o.at(key);
            EXPECT_EQ(b.size(), std::size_t(range->hasMin()) + std::size_t(range->hasMax())) << b;
            if (range->hasMin()) {
                EXPECT_EQ(b.at(range->minOpen ? "exclusiveMinimum" : "minimum").get<double>(),
                          range->min);
            }
            if (range->hasMax()) {
                EXPECT_EQ(b.at(range->maxOpen ? "exclusiveMaximum" : "maximum").get<double>(),
                          range->max);
            }
        }
    }
    EXPECT_EQ(rows[0].at("range"), nlohmann::json({{"minimum", 1e-6}})); // timeStep's floor
}

TEST_F(ParamsCli, MakeScenesDefaultsAreTheTables) {
    if (std::system("command -v python3 > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "python3 not available";
    }
    const Result r = orca("params --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const fs::path good = write("params.json", r.out);
    const std::string script =
        "python3 \"" + std::string(ORCA_SOURCE_DIR) + "/scripts/make_scenes.py\" --check-params ";
    EXPECT_EQ(std::system((script + "\"" + good.string() + "\"").c_str()), 0);
    // The check does check: a table whose radius default differs is refused.
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);
    for (auto& row : j.at("parameters"))
        if (row.at("name") == "radius") row["default"] = 1.25;
    const fs::path bad = write("bad.json", j.dump(2));
    const std::string quiet = " 2> \"" + (m_dir / "err.txt").string() + "\"";
    EXPECT_NE(std::system((script + "\"" + bad.string() + "\"" + quiet).c_str()), 0);
    EXPECT_NE(readFile(m_dir / "err.txt").find("agent.radius: script default 1.5, table 1.25"),
              std::string::npos)
        << readFile(m_dir / "err.txt");
}

TEST_F(ParamsCli, DocsListEveryRow) {
    const std::string doc = readFile(fs::path(ORCA_SOURCE_DIR) / "docs" / "parameters.md");
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(qualifiedName(row));
        const std::size_t at = doc.find("\n| `" + qualifiedName(row) + "` | ");
        ASSERT_NE(at, std::string::npos);
        const std::string line = doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
        std::vector<std::string> cells;
        for (std::size_t k = 1; k < line.size();) {
            std::size_t end = line.find(" | ", k);
            while (end != std::string::npos && line[end - 1] == '\\')
                end = line.find(" | ", end + 1);
            if (end == std::string::npos) end = line.size() - 2;
            cells.push_back(line.substr(k + 1, end - k - 1));
            k = end + 2;
        }
        ASSERT_EQ(cells.size(), 7u) << line;
        EXPECT_EQ(cells[1], kindName(row.kind));
        if (row.kind == ParamKind::Boolean) {
            EXPECT_EQ(cells[4], row.defaultValue != 0.0 ? "true" : "false");
            continue;
        }
        EXPECT_EQ(cells[2], formatRange(row.range));
        EXPECT_EQ(cells[3], formatRange(row.fileRange));
        EXPECT_EQ(cells[4], formatValue(row.defaultValue));
        EXPECT_EQ(cells[5], row.unit.empty() ? "-" : std::string(row.unit));
    }
}

TEST_F(ParamsCli, HelpNamesJson) {
    const Result r = orca("params --help");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--json"), std::string::npos) << r.out;
}

} // namespace
} // namespace orca::testing
