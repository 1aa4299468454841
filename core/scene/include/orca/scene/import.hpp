#pragma once
/// \file import.hpp
/// Importers for the scenario formats of other crowd tools (docs/import.md): SteerSuite test
/// cases (`SteerBenchTestCase` XML) and Menge projects (project, scene and behaviour XML).
/// An import reads what maps onto an ORCA scene — agents with their goals (a goal sequence
/// becomes waypoints and a final goal), ORCA parameters, polygon obstacles — and lists every
/// element it leaves out or approximates, with the reason, in an ImportResult. Nothing is
/// dropped silently: every agent of the input is either in the scene or in `dropped`.
///
/// Random choices (SteerSuite's random positions, agent and obstacle regions; Menge's random
/// generators, distributions and random goal selectors) come from one std::mt19937 seeded with
/// ImportOptions::seed, mapped to [0, 1) by ImportRng (not std::uniform_real_distribution,
/// whose output differs between standard libraries), so an import is reproducible.
///
/// Errors (malformed XML, a value that is not a number, a negative radius, a missing file)
/// throw SceneError: `FILE:LINE:COLUMN: error: at PATH: MESSAGE`, PATH being the element's
/// path (`SteerBenchTestCase/agent[2]/initialConditions/radius`, 1-based like XPath).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/scene/scene.hpp"

namespace orca::scene {

/// The formats `importScenario` reads.
enum class ImportFormat {
    SteerSuite, ///< a SteerBenchTestCase XML file
    Menge       ///< a Menge project, or its scene (Experiment) and behaviour (BFSM) files
};

/// The document kind of an XML text, by its root element (not by the file name).
enum class ImportDocument {
    None,           ///< not XML, or a root element we do not read
    SteerSuiteCase, ///< <SteerBenchTestCase>
    MengeProject,   ///< <Project>
    MengeScene,     ///< <Experiment>
    MengeBehaviour  ///< <BFSM>
};

/// The kind of `text`, from its root element (leading whitespace, an XML declaration,
/// comments and a BOM are skipped; a namespace prefix on the root is ignored). Never throws.
[[nodiscard]] ImportDocument detectImportDocument(std::string_view text);

/// "steersuite" or "menge".
[[nodiscard]] std::string_view toString(ImportFormat format);

/// Options of an import.
struct ImportOptions {
    /// Seed of the std::mt19937 behind every random choice (docs/import.md, "Seeds").
    std::uint32_t seed = 1;
    /// Largest file read (as LoadOptions::maxFileSize).
    std::uint64_t maxFileSize = kDefaultMaxFileSize;
};

/// One element of the input left out of the scene.
struct ImportDrop {
    std::string what; ///< which element: `agent[3] "A" goal 2 <fleeStaticTarget>`
    std::string why;  ///< one sentence: why it has no counterpart in an ORCA scene
    friend bool operator==(const ImportDrop&, const ImportDrop&) = default;
};

/// What an import made.
struct ImportResult {
    ImportFormat format = ImportFormat::SteerSuite;
    std::vector<std::string> files; ///< the files read, in the order read
    std::uint32_t seed = 1;
    Scene scene;                     ///< valid: serializeScene / saveScene accept it
    std::vector<ImportDrop> dropped; ///< elements left out, with the reason
    std::vector<std::string> notes;  ///< approximations, defaults used, unknown elements
};

/// One input text with the name used in messages (and, for a Menge project, the folder its
/// scene and behaviour paths are relative to).
struct ImportText {
    std::string fileName;
    std::string text;
};

/// Reads a file named by a Menge project (its path resolved against the project's folder);
/// throws SceneError when it cannot. The default reads the file system.
using ImportFileReader = std::function<ImportText(const std::filesystem::path& path)>;

/// Imports texts already in memory: one SteerSuite test case; or a Menge project (its scene
/// and behaviour read through `reader`, none = refused with a SceneError); or a Menge scene
/// with or without its behaviour file (in any order). Throws SceneError on bad input,
/// std::invalid_argument when the texts do not form one scenario (two test cases, a
/// behaviour file alone, a mix of formats).
[[nodiscard]] ImportResult importTexts(const std::vector<ImportText>& inputs,
                                       const ImportOptions& options = {},
                                       const ImportFileReader& reader = {});

/// Reads the files and imports them (importTexts with a reader of the file system).
[[nodiscard]] ImportResult importFiles(const std::vector<std::filesystem::path>& files,
                                       const ImportOptions& options = {});

/// A SteerSuite test case (import_steersuite.cpp).
[[nodiscard]] ImportResult importSteerSuite(const ImportText& input,
                                            const ImportOptions& options = {});

/// A Menge scene and, when given, its behaviour file; `project` (the project file, when the
/// scene came from one) supplies the pedestrian model (import_menge.cpp).
[[nodiscard]] ImportResult importMenge(const ImportText& scene,
                                       const std::optional<ImportText>& behaviour,
                                       const std::optional<ImportText>& project = std::nullopt,
                                       const ImportOptions& options = {});

/// The report `orca import` prints: {"format", "files", "seed", "agents", "obstacles",
/// "dropped": [{"what", "why"}], "notes": [...]}.
[[nodiscard]] nlohmann::ordered_json importReportJson(const ImportResult& result);

/// Uniform numbers for importers: std::mt19937 (fully specified by the C++ standard) and an
/// explicit mapping, so that the same seed gives the same scene with every standard library.
class ImportRng {
  public:
    explicit ImportRng(std::uint32_t seed) : m_gen(seed) {}
    /// [0, 1) with 53 random bits: two 32-bit outputs a, b; ((a >> 5) * 2^26 + (b >> 6)) / 2^53.
    double unit();
    /// lo + unit() * (hi - lo).
    double uniform(double lo, double hi) { return lo + unit() * (hi - lo); }
    /// An index in [0, n) (n > 0): floor(unit() * n).
    std::size_t index(std::size_t n);
    /// A standard normal number (Box–Muller on two unit() draws, the cosine branch).
    double normal(double mean, double stddev);

  private:
    std::mt19937 m_gen;
};

} // namespace orca::scene
