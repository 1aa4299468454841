// The scene JSON Schema (assets/scene.schema.json) against the parameter table
// (orca/parameters.hpp): every parameter's type, bounds and default in the committed schema
// are the table's (the schema is written by hand; this test keeps it current).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "orca/parameters.hpp"

namespace orca {
namespace {

namespace fs = std::filesystem;

nlohmann::json loadSchema() {
    std::ifstream in(fs::path(ORCA_SOURCE_DIR) / "assets" / "scene.schema.json", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return nlohmann::json::parse(ss.str());
}

/// Follows a local "$ref" ("#/$defs/name").
const nlohmann::json& resolve(const nlohmann::json& root, const nlohmann::json& node) {
    if (!node.contains("$ref")) return node;
    const std::string ref = node.at("$ref").get<std::string>();
    return root.at(nlohmann::json::json_pointer(ref.substr(1)));
}

/// The schema of `row` as it appears in a file: the simulation block, the detour block, or
/// (for an agent parameter) the agentDefaults block, which agents share by reference.
const nlohmann::json& schemaOf(const nlohmann::json& schema, const ParamRow& row) {
    const char* block = row.scope == ParamScope::Simulation ? "simulation"
                        : row.scope == ParamScope::Detour   ? "detour"
                                                            : "agentDefaults";
    const nlohmann::json& blockSchema = resolve(schema, schema.at("properties").at(block));
    return resolve(schema, blockSchema.at("properties").at(std::string(row.name)));
}

TEST(ParametersSchema, BoundsTypesAndDefaultsAreTheTables) {
    const nlohmann::json schema = loadSchema();
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(qualifiedName(row));
        const nlohmann::json& p = schemaOf(schema, row);
        const char* type = row.kind == ParamKind::Boolean   ? "boolean"
                           : row.kind == ParamKind::Integer ? "integer"
                                                            : "number";
        EXPECT_EQ(p.at("type"), type);
        if (row.kind == ParamKind::Boolean) {
            EXPECT_EQ(p.at("default"), row.defaultValue != 0.0);
            continue;
        }
        const ParamRange& f = row.fileRange;
        auto bound = [&](const char* key) -> std::optional<double> {
            if (!p.contains(key)) return std::nullopt;
            return p.at(key).get<double>();
        };
        EXPECT_EQ(bound("minimum"), f.hasMin() && !f.minOpen ? std::optional(f.min) : std::nullopt);
        EXPECT_EQ(bound("exclusiveMinimum"),
                  f.hasMin() && f.minOpen ? std::optional(f.min) : std::nullopt);
        EXPECT_EQ(bound("maximum"), f.hasMax() && !f.maxOpen ? std::optional(f.max) : std::nullopt);
        EXPECT_EQ(bound("exclusiveMaximum"),
                  f.hasMax() && f.maxOpen ? std::optional(f.max) : std::nullopt);
        // A default outside the file range is a sentinel that a file writes by leaving the key
        // out (goalRadius); the schema then names no default.
        if (f.contains(row.defaultValue)) {
            ASSERT_TRUE(p.contains("default"));
            EXPECT_EQ(p.at("default").get<double>(), row.defaultValue);
        } else {
            EXPECT_FALSE(p.contains("default"));
        }
    }
}

TEST(ParametersSchema, AgentsShareTheAgentDefaultsSchema) {
    const nlohmann::json schema = loadSchema();
    const nlohmann::json& agent =
        resolve(schema, resolve(schema, schema.at("properties").at("agents")).at("items"));
    for (const ParamRow& row : parameterTable(ParamScope::Agent)) {
        SCOPED_TRACE(std::string(row.name));
        EXPECT_EQ(&resolve(schema, agent.at("properties").at(std::string(row.name))),
                  &schemaOf(schema, row));
    }
}

} // namespace
} // namespace orca
