// Lesson files (lesson.hpp): the names a lesson may use, the reader that turns a lesson's JSON
// into a Lesson (every error with its JSON path), loading, and the Lesson queries. The "try
// this" task checks are in lesson_tasks.cpp.
#include "orca/scene/lesson.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "lesson_support.hpp"
#include "orca/scene/path_text.hpp"
#include "orca/scene/text_limits.hpp"

namespace orca::lesson {

namespace {

using namespace detail;

using OJson = nlohmann::ordered_json;

constexpr int kFormatVersion = 1;
/// Steps a lesson or page may ask for: the app runs them when the page opens, so a typo such
/// as 100000000 must not hang it.
constexpr std::int64_t kMaxSteps = 100000;

constexpr std::array<std::string_view, 21> kLayerNames = {
    "grid",           "obstacles",      "goals",          "goalLines",       "velocities",
    "selectionRings", "agentIds",       "trails",         "obstacleWinding", "obstacleNormals",
    "detourField",    "inWorld",        "velocityPanel",  "voCones",         "halfPlanes",
    "uVectors",       "feasibleRegion", "velocityArrows", "neighborLinks",   "neighborCircle",
    "detour"};
constexpr std::array<std::string_view, 9> kPanelNames = {
    "parameters",    "inspector", "metrics", "linter", "generators",
    "agentDefaults", "events",    "why",     "compare"};
/// Older window names still accepted, each with its name now (the app's panel aliases).
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> kPanelAliases = {{
    {"defaults", "agentDefaults"},
}};
constexpr std::array<std::string_view, 12> kTaskParams = {"radius",
                                                          "maxSpeed",
                                                          "prefSpeed",
                                                          "neighborDist",
                                                          "maxNeighbors",
                                                          "timeHorizon",
                                                          "timeHorizonObst",
                                                          "goalRadius",
                                                          "timeStep",
                                                          "responsibility",
                                                          "staticResponsibility",
                                                          "lp3BisectorWeight"};

constexpr std::array<std::string_view, 11> kTopKeys = {"format", "version", "title",  "summary",
                                                       "scene",  "camera",  "select", "layers",
                                                       "steps",  "pages",   "$schema"};
constexpr std::array<std::string_view, 11> kPageKeys = {
    "title", "text",         "layers", "select", "camera", "steps",
    "run",   "construction", "solve",  "panels", "task"};
constexpr std::array<std::string_view, 3> kCameraKeys = {"center", "zoom", "fit"};
constexpr std::array<std::string_view, 3> kConstructionKeys = {"agent", "neighbor", "phase"};
constexpr std::array<std::string_view, 1> kSolveKeys = {"step"};
constexpr std::array<std::string_view, 8> kTaskKeys = {"kind",  "text", "success", "agent",
                                                       "other", "case", "param",   "value"};
constexpr std::array<std::string_view, 3> kPhaseNames = {"vo", "u", "half-plane"};

constexpr std::array<std::pair<TaskKind, std::string_view>, 11> kTaskKinds = {{
    {TaskKind::HalfPlaneFlips, "half-plane-flips"},
    {TaskKind::LineCase, "line-case"},
    {TaskKind::OutsideVo, "outside-vo"},
    {TaskKind::SeesNeighbor, "sees-neighbor"},
    {TaskKind::Lp3Stops, "lp3-stops"},
    {TaskKind::Lp3Runs, "lp3-runs"},
    {TaskKind::AgentReachesGoal, "agent-reaches-goal"},
    {TaskKind::AllReachGoal, "all-reach-goal"},
    {TaskKind::ParamBelow, "param-below"},
    {TaskKind::ParamAbove, "param-above"},
    {TaskKind::DetourEnabled, "detour-enabled"},
}};

constexpr std::array<LineCase, 4> kAgentCases = {LineCase::AgentCutoffCircle,
                                                 LineCase::AgentLeftLeg, LineCase::AgentRightLeg,
                                                 LineCase::AgentColliding};

std::string childPath(const std::string& parent, std::string_view key) {
    return parent.empty() ? std::string(key) : parent + '.' + std::string(key);
}

std::string indexPath(const std::string& parent, std::size_t index) {
    return parent + '[' + std::to_string(index) + ']';
}

std::string quote(std::string_view s) {
    return '"' + std::string(s) + '"';
}

std::string join(std::span<const std::string_view> words) {
    std::string out;
    for (std::string_view w : words) {
        if (!out.empty()) out += ", ";
        out += w;
    }
    return out;
}

bool needsAgent(TaskKind k) {
    return k != TaskKind::AllReachGoal && k != TaskKind::DetourEnabled;
}

bool needsOther(TaskKind k) {
    return k == TaskKind::HalfPlaneFlips || k == TaskKind::LineCase || k == TaskKind::OutsideVo ||
           k == TaskKind::SeesNeighbor;
}

bool isSimulationParam(std::string_view name) {
    return name == "timeStep" || name == "responsibility" || name == "staticResponsibility" ||
           name == "lp3BisectorWeight";
}

/// Reads one lesson document; every failure names the file and the JSON path.
class Reader {
  public:
    explicit Reader(std::filesystem::path file, scene::LoadOptions options = {})
        : m_file(std::move(file)), m_name(m_file.string()), m_options(std::move(options)) {
        if (m_name.empty()) m_name = "<lesson>";
    }

    LessonLoad load(const OJson& root) {
        if (!root.is_object())
            fail("",
                 "expected a JSON object at the top level, got " + scene::describeJsonValue(root));
        header(root);
        checkKeys(root, "", kTopKeys);
        LessonLoad out;
        Lesson& l = out.lesson;
        l.title = requiredString(root, "", "title");
        if (const OJson* v = find(root, "summary")) l.summary = string(*v, "summary");
        const OJson* sc = find(root, "scene");
        if (!sc)
            fail("", "missing required key \"scene\" (an inline scene object, or the path of a "
                     "scene file relative to the lesson)");
        loadScene(*sc, out);
        m_agents = l.scene.agents.size();
        if (const OJson* v = find(root, "camera")) l.camera = camera(*v, "camera");
        if (const OJson* v = find(root, "select")) l.select = indices(*v, "select");
        if (const OJson* v = find(root, "layers")) l.layers = layers(*v, "layers");
        if (const OJson* v = find(root, "steps")) l.steps = steps(*v, "steps");
        const OJson* pages = find(root, "pages");
        if (!pages) fail("", "missing required key \"pages\" (an array of pages, at least one)");
        if (!pages->is_array())
            fail("pages", "expected an array of pages, got " + scene::describeJsonValue(*pages));
        if (pages->empty()) fail("pages", "a lesson needs at least one page");
        for (std::size_t i = 0; i < pages->size(); ++i)
            l.pages.push_back(page((*pages)[i], indexPath("pages", i), l));
        textWarnings(l, out.warnings);
        return out;
    }

  private:
    [[noreturn]] void fail(const std::string& path, const std::string& message) const {
        throw LessonError(m_name, path, 0, 0, message);
    }

    /// Warnings for the texts the app shows cut (text_limits.hpp).
    static void textWarnings(const Lesson& l, std::vector<scene::SceneWarning>& out) {
        auto check = [&](const std::string& text, std::size_t limit, std::string path,
                         const char* what) {
            if (scene::textIsCut(text, limit))
                out.push_back({std::move(path), std::string(what) + " is " +
                                                    scene::textCutWarning(text.size(), limit)});
        };
        check(l.title, scene::kMaxTitleBytes, "title", "the title");
        for (std::size_t i = 0; i < l.pages.size(); ++i) {
            const LessonPage& p = l.pages[i];
            const std::string path = indexPath("pages", i);
            check(p.title, scene::kMaxTitleBytes, childPath(path, "title"), "the page's title");
            check(p.text, scene::kMaxPageTextBytes, childPath(path, "text"), "the page's text");
            if (!p.task) continue;
            const std::string task = childPath(path, "task");
            check(p.task->text, scene::kMaxParagraphBytes, childPath(task, "text"),
                  "the task's text");
            check(p.task->success, scene::kMaxParagraphBytes, childPath(task, "success"),
                  "the task's success message");
        }
    }

    static const OJson* find(const OJson& obj, std::string_view key) {
        const auto it = obj.find(std::string(key));
        return it == obj.end() ? nullptr : &*it;
    }

    void header(const OJson& root) const {
        const OJson* format = find(root, "format");
        if (!format)
            fail("", "missing required key \"format\" (a lesson file starts with \"format\": "
                     "\"orca-lesson\", \"version\": 1)");
        if (!format->is_string() || format->get<std::string>() != kFormatName)
            fail("format", "expected \"orca-lesson\", got " + scene::describeJsonValue(*format) +
                               " (this is not an ORCA Sandbox lesson file)");
        const OJson* version = find(root, "version");
        if (!version) fail("", "missing required key \"version\" (expected 1)");
        if (!version->is_number_integer() && !version->is_number_unsigned())
            fail("version", "expected the integer 1, got " + scene::describeJsonValue(*version));
        const auto v = version->get<std::int64_t>();
        if (v > kFormatVersion)
            fail("version", "the file was written by a newer version of ORCA Sandbox (lesson "
                            "format version " +
                                std::to_string(v) + "); this build reads version 1 only");
        if (v != kFormatVersion)
            fail("version",
                 "unsupported lesson format version " + std::to_string(v) + " (expected 1)");
    }

    void checkKeys(const OJson& obj, const std::string& path,
                   std::span<const std::string_view> valid) const {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            if (std::find(valid.begin(), valid.end(), it.key()) == valid.end())
                fail(path, scene::unknownKeyMessage(it.key(), valid));
        }
    }

    void requireObject(const OJson& j, const std::string& path) const {
        if (!j.is_object()) fail(path, "expected an object, got " + scene::describeJsonValue(j));
    }

    std::string string(const OJson& j, const std::string& path) const {
        if (!j.is_string()) fail(path, "expected a string, got " + scene::describeJsonValue(j));
        return j.get<std::string>();
    }

    std::string requiredString(const OJson& obj, const std::string& path,
                               std::string_view key) const {
        const OJson* v = find(obj, key);
        if (!v) fail(path, "missing required key " + quote(key) + " (a string)");
        std::string s = string(*v, childPath(path, key));
        if (s.find_first_not_of(" \t\r\n") == std::string::npos)
            fail(childPath(path, key), "must not be empty");
        return s;
    }

    double number(const OJson& j, const std::string& path) const {
        if (!j.is_number()) fail(path, "expected a number, got " + scene::describeJsonValue(j));
        const double v = j.get<double>();
        if (!std::isfinite(v) || std::fabs(v) > scene::kMaxMagnitude)
            fail(path, "the value " + formatNumber(v) +
                           " is out of range (values must lie within -1e7..1e7)");
        return v;
    }

    std::int64_t integer(const OJson& j, const std::string& path, std::int64_t max) const {
        std::optional<std::int64_t> v;
        if (j.is_number_unsigned()) {
            const auto u = j.get<std::uint64_t>();
            v = u > static_cast<std::uint64_t>(max) ? max + 1 : static_cast<std::int64_t>(u);
        } else if (j.is_number_integer()) {
            v = j.get<std::int64_t>();
        } else if (j.is_number_float()) {
            const double d = j.get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18)
                v = static_cast<std::int64_t>(d);
        }
        if (!v || *v < 0)
            fail(path, "expected a non-negative integer, got " + scene::describeJsonValue(j));
        if (*v > max)
            fail(path,
                 "the value " + j.dump() + " is too large (at most " + std::to_string(max) + ")");
        return *v;
    }

    Vec2 vec2(const OJson& j, const std::string& path) const {
        if (!j.is_array() || j.size() != 2) {
            std::string got = scene::describeJsonValue(j);
            if (j.is_array()) got = "an array of " + std::to_string(j.size()) + " elements";
            fail(path, "expected [x, y] (an array of 2 numbers), got " + got);
        }
        return {number(j[0], indexPath(path, 0)), number(j[1], indexPath(path, 1))};
    }

    std::size_t agentIndex(const OJson& j, const std::string& path) const {
        const auto i = static_cast<std::size_t>(integer(j, path, std::numeric_limits<int>::max()));
        if (i >= m_agents)
            fail(path, "agent index " + std::to_string(i) + " is out of range (the scene has " +
                           std::to_string(m_agents) + (m_agents == 1 ? " agent)" : " agents)"));
        return i;
    }

    std::vector<std::size_t> indices(const OJson& j, const std::string& path) const {
        if (!j.is_array())
            fail(path, "expected an array of agent indices, got " + scene::describeJsonValue(j));
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < j.size(); ++i)
            out.push_back(agentIndex(j[i], indexPath(path, i)));
        return out;
    }

    std::uint64_t steps(const OJson& j, const std::string& path) const {
        return static_cast<std::uint64_t>(integer(j, path, kMaxSteps));
    }

    void loadScene(const OJson& j, LessonLoad& out) {
        Lesson& l = out.lesson;
        if (j.is_string()) {
            const std::string name = j.get<std::string>();
            if (name.empty()) fail("scene", "expected the path of a scene file, got \"\"");
            std::filesystem::path p(name);
            if (p.is_relative()) p = m_file.parent_path() / p;
            try {
                scene::LoadResult r = scene::loadScene(p, m_options);
                l.scene = std::move(r.scene);
                for (scene::SceneWarning& w : r.warnings) {
                    w.message = scene::displayPath(p) + ": " + w.message;
                    out.warnings.push_back(std::move(w));
                }
            } catch (const scene::SceneError& e) {
                fail("scene", "the scene file " + quote(name) + " does not load: " + e.what());
            }
            l.sceneFile = p.lexically_normal();
            return;
        }
        if (!j.is_object())
            fail("scene", "expected an inline scene object or the path of a scene file, got " +
                              scene::describeJsonValue(j));
        // An inline scene may leave out the scene file's header.
        OJson inline_ = OJson::object();
        if (!j.contains("format")) inline_["format"] = "orca-scene";
        if (!j.contains("version")) inline_["version"] = 1;
        for (auto it = j.begin(); it != j.end(); ++it)
            inline_[it.key()] = it.value();
        try {
            scene::LoadResult r = scene::parseScene(inline_.dump(), m_name, m_options);
            l.scene = std::move(r.scene);
            for (scene::SceneWarning& w : r.warnings) {
                w.jsonPath = childPath("scene", w.jsonPath);
                out.warnings.push_back(std::move(w));
            }
        } catch (const scene::SceneError& e) {
            fail(e.jsonPath().empty() ? "scene" : "scene." + e.jsonPath(), e.message());
        }
    }

    LessonCamera camera(const OJson& j, const std::string& path) const {
        requireObject(j, path);
        checkKeys(j, path, kCameraKeys);
        LessonCamera c;
        const OJson* center = find(j, "center");
        const OJson* zoom = find(j, "zoom");
        const OJson* fit = find(j, "fit");
        if (fit && (center || zoom))
            fail(path, "give either \"fit\" or \"center\" and \"zoom\", not both");
        if (fit) {
            const std::string fp = childPath(path, "fit");
            if (!fit->is_array() || fit->size() != 2)
                fail(fp, "expected [[xmin, ymin], [xmax, ymax]] (the world rectangle to show), "
                         "got " +
                             scene::describeJsonValue(*fit));
            const Vec2 lo = vec2((*fit)[0], indexPath(fp, 0));
            const Vec2 hi = vec2((*fit)[1], indexPath(fp, 1));
            if (!(hi.x > lo.x && hi.y > lo.y))
                fail(fp, "the second corner must lie above and to the right of the first");
            c.fit = std::make_pair(lo, hi);
            return c;
        }
        if (!center || !zoom)
            fail(path, "expected \"center\" and \"zoom\" (screen units per world unit), or "
                       "\"fit\"");
        c.center = vec2(*center, childPath(path, "center"));
        c.zoom = number(*zoom, childPath(path, "zoom"));
        if (!(c.zoom > 0.0))
            fail(childPath(path, "zoom"), "expected a number > 0, got " + formatNumber(c.zoom));
        return c;
    }

    std::string layers(const OJson& j, const std::string& path) const {
        const std::string s = string(j, path);
        std::size_t start = 0;
        while (start <= s.size()) {
            std::size_t comma = s.find(',', start);
            if (comma == std::string::npos) comma = s.size();
            std::string word = s.substr(start, comma - start);
            start = comma + 1;
            while (!word.empty() && word.front() == ' ')
                word.erase(word.begin());
            while (!word.empty() && word.back() == ' ')
                word.pop_back();
            if (word.empty()) {
                if (comma == s.size() && !s.empty()) break;
                fail(path, "empty layer name in " + quote(s));
            }
            if (word == "all" || word == "none") continue;
            if (word.front() == '-') word.erase(word.begin());
            if (std::find(kLayerNames.begin(), kLayerNames.end(), word) == kLayerNames.end())
                fail(path, "unknown layer " + quote(word) + " (layers: " + join(kLayerNames) +
                               ", all, none; -name turns one off)");
        }
        return s;
    }

    LessonConstruction construction(const OJson& j, const std::string& path) const {
        requireObject(j, path);
        checkKeys(j, path, kConstructionKeys);
        LessonConstruction c;
        const OJson* agent = find(j, "agent");
        const OJson* neighbor = find(j, "neighbor");
        if (agent && neighbor)
            fail(path, "give the neighbour either by \"agent\" (its index in the scene) or by "
                       "\"neighbor\" (its rank, 0 = nearest), not both");
        if (agent) c.agent = agentIndex(*agent, childPath(path, "agent"));
        if (neighbor)
            c.neighbor = static_cast<std::size_t>(
                integer(*neighbor, childPath(path, "neighbor"), std::numeric_limits<int>::max()));
        if (const OJson* phase = find(j, "phase")) {
            const std::string p = childPath(path, "phase");
            const std::string name = string(*phase, p);
            const auto it = std::find(kPhaseNames.begin(), kPhaseNames.end(), name);
            if (it == kPhaseNames.end())
                fail(p, "unknown phase " + quote(name) + " (phases: " + join(kPhaseNames) + ")");
            c.phase = static_cast<int>(it - kPhaseNames.begin());
        }
        return c;
    }

    std::vector<std::string> panels(const OJson& j, const std::string& path) const {
        if (!j.is_array())
            fail(path, "expected an array of window names, got " + scene::describeJsonValue(j));
        std::vector<std::string> out;
        for (std::size_t i = 0; i < j.size(); ++i) {
            std::string name = string(j[i], indexPath(path, i));
            for (const auto& [alias, current] : kPanelAliases)
                if (name == alias) name = current;
            if (std::find(kPanelNames.begin(), kPanelNames.end(), name) == kPanelNames.end())
                fail(indexPath(path, i),
                     "unknown window " + quote(name) + " (windows: " + join(kPanelNames) + ")");
            out.push_back(name);
        }
        return out;
    }

    std::string text(const OJson& j, const std::string& path) const {
        if (j.is_string()) return j.get<std::string>();
        if (!j.is_array())
            fail(path, "expected a string or an array of paragraphs (strings), got " +
                           scene::describeJsonValue(j));
        std::string out;
        for (std::size_t i = 0; i < j.size(); ++i) {
            const std::string para = string(j[i], indexPath(path, i));
            if (!out.empty()) out += "\n\n";
            out += para;
        }
        return out;
    }

    LessonTask task(const OJson& j, const std::string& path,
                    std::optional<std::size_t> primary) const {
        const bool hasSelection = primary.has_value();
        requireObject(j, path);
        checkKeys(j, path, kTaskKeys);
        LessonTask t;
        const OJson* kind = find(j, "kind");
        if (!kind) fail(path, "missing required key \"kind\"");
        const std::string kp = childPath(path, "kind");
        const std::string name = string(*kind, kp);
        const auto k = taskKindFromName(name);
        if (!k) {
            std::vector<std::string_view> names;
            for (const auto& [_, n] : kTaskKinds)
                names.push_back(n);
            fail(kp, "unknown task kind " + quote(name) + " (kinds: " + join(names) + ")");
        }
        t.kind = *k;
        t.text = requiredString(j, path, "text");
        if (const OJson* v = find(j, "success")) t.success = string(*v, childPath(path, "success"));
        if (const OJson* v = find(j, "agent")) t.agent = agentIndex(*v, childPath(path, "agent"));
        if (const OJson* v = find(j, "other")) t.other = agentIndex(*v, childPath(path, "other"));
        const OJson* lineCase = find(j, "case");
        const OJson* param = find(j, "param");
        const OJson* value = find(j, "value");
        auto only = [&](const OJson* key, const char* keyName, bool allowed) {
            if (key && !allowed)
                fail(path, quote(keyName) + " does not apply to a " + quote(name) + " task");
        };
        const bool isParam = t.kind == TaskKind::ParamBelow || t.kind == TaskKind::ParamAbove;
        only(lineCase, "case", t.kind == TaskKind::LineCase);
        only(param, "param", isParam);
        only(value, "value", isParam);
        only(find(j, "other"), "other", needsOther(t.kind));
        if (needsOther(t.kind) && !t.other)
            fail(path, "a " + quote(name) + " task needs \"other\" (the index of agent B)");
        if (t.kind == TaskKind::LineCase) {
            if (!lineCase) fail(path, "a \"line-case\" task needs \"case\"");
            const std::string cp = childPath(path, "case");
            const std::string c = string(*lineCase, cp);
            bool found = false;
            std::vector<std::string_view> names;
            for (const LineCase lc : kAgentCases) {
                names.push_back(toString(lc));
                if (toString(lc) == c) {
                    t.lineCase = lc;
                    found = true;
                }
            }
            if (!found)
                fail(cp, "unknown agent line case " + quote(c) + " (cases: " + join(names) + ")");
        }
        if (isParam) {
            if (!param || !value)
                fail(path, "a " + quote(name) + " task needs \"param\" and \"value\"");
            const std::string pp = childPath(path, "param");
            t.param = string(*param, pp);
            if (std::find(kTaskParams.begin(), kTaskParams.end(), t.param) == kTaskParams.end())
                fail(pp, "unknown parameter " + quote(t.param) +
                             " (parameters: " + join(kTaskParams) + ")");
            t.value = number(*value, childPath(path, "value"));
        }
        const bool agentNeeded = needsAgent(t.kind) && !(isParam && isSimulationParam(t.param));
        if (agentNeeded && !t.agent && !hasSelection)
            fail(path, "the task needs an agent: give \"agent\" or select one on the page or the "
                       "lesson (\"select\")");
        const std::optional<std::size_t> a = t.agent ? t.agent : primary;
        if (t.other && a && *a == *t.other)
            fail(childPath(path, "other"), "agent B must differ from agent A");
        return t;
    }

    LessonPage page(const OJson& j, const std::string& path, const Lesson& l) const {
        requireObject(j, path);
        checkKeys(j, path, kPageKeys);
        LessonPage p;
        p.title = requiredString(j, path, "title");
        const OJson* t = find(j, "text");
        if (!t) fail(path, "missing required key \"text\" (a string or an array of paragraphs)");
        p.text = text(*t, childPath(path, "text"));
        if (p.text.find_first_not_of(" \t\r\n") == std::string::npos)
            fail(childPath(path, "text"), "must not be empty");
        if (const OJson* v = find(j, "layers")) p.layers = layers(*v, childPath(path, "layers"));
        if (const OJson* v = find(j, "select")) p.select = indices(*v, childPath(path, "select"));
        if (const OJson* v = find(j, "camera")) p.camera = camera(*v, childPath(path, "camera"));
        if (const OJson* v = find(j, "steps")) p.steps = steps(*v, childPath(path, "steps"));
        if (const OJson* v = find(j, "run")) {
            if (!v->is_boolean())
                fail(childPath(path, "run"),
                     "expected true or false, got " + scene::describeJsonValue(*v));
            p.run = v->get<bool>();
        }
        const std::vector<std::size_t>& sel = p.select ? *p.select : l.select;
        const OJson* cons = find(j, "construction");
        const OJson* solve = find(j, "solve");
        if (cons && solve)
            fail(path, "a page shows either the construction or the solve walkthrough, not both");
        if (cons) {
            if (sel.empty())
                fail(childPath(path, "construction"),
                     "construction mode needs a selected agent (\"select\" on the page or the "
                     "lesson)");
            p.construction = construction(*cons, childPath(path, "construction"));
            if (p.construction->agent && *p.construction->agent == sel.back())
                fail(childPath(path, "construction.agent"),
                     "the neighbour must differ from the selected agent");
        }
        if (solve) {
            const std::string sp = childPath(path, "solve");
            requireObject(*solve, sp);
            checkKeys(*solve, sp, kSolveKeys);
            const OJson* step = find(*solve, "step");
            if (!step) fail(sp, "missing required key \"step\" (the solve walkthrough's step)");
            p.solveStep = integer(*step, childPath(sp, "step"), 10000);
        }
        if (const OJson* v = find(j, "panels")) p.panels = panels(*v, childPath(path, "panels"));
        if (const OJson* v = find(j, "task"))
            p.task = task(*v, childPath(path, "task"),
                          sel.empty() ? std::nullopt : std::optional<std::size_t>(sel.back()));
        return p;
    }

    std::filesystem::path m_file;
    std::string m_name;
    scene::LoadOptions m_options; ///< for the scene, and the file-size limit of a linked one
    std::size_t m_agents = 0;
};

} // namespace

std::span<const std::string_view> layerNames() {
    return kLayerNames;
}

std::span<const std::string_view> panelNames() {
    return kPanelNames;
}

std::span<const std::string_view> taskParamNames() {
    return kTaskParams;
}

std::string_view toString(TaskKind kind) {
    for (const auto& [k, name] : kTaskKinds)
        if (k == kind) return name;
    return "unknown";
}

std::optional<TaskKind> taskKindFromName(std::string_view name) {
    for (const auto& [k, n] : kTaskKinds)
        if (n == name) return k;
    return std::nullopt;
}

std::uint64_t Lesson::pageSteps(std::size_t index) const {
    for (std::size_t i = std::min(index + 1, pages.size()); i-- > 0;)
        if (pages[i].steps) return *pages[i].steps;
    return steps;
}

const std::vector<std::size_t>& Lesson::pageSelect(std::size_t index) const {
    if (index < pages.size() && pages[index].select) return *pages[index].select;
    return select;
}

std::size_t Lesson::taskCount() const {
    return static_cast<std::size_t>(std::count_if(
        pages.begin(), pages.end(), [](const LessonPage& p) { return p.task.has_value(); }));
}

LessonLoad parseLesson(const std::string& text, const std::filesystem::path& fileName) {
    const std::string name = fileName.empty() ? std::string("<lesson>") : fileName.string();
    const OJson root = scene::parseJsonText(text, name);
    return Reader(fileName).load(root);
}

LessonLoad loadLesson(const std::filesystem::path& path) {
    return loadLesson(path, scene::LoadOptions{});
}

LessonLoad loadLesson(const std::filesystem::path& path, const scene::LoadOptions& options) {
    const std::string text =
        scene::readTextFile(path, options.maxFileSize, options.maxFileSizeSetting);
    const OJson root = scene::parseJsonText(text, path.empty() ? "<lesson>" : path.string());
    return Reader(path, options).load(root);
}

bool isLessonText(const std::string& text) {
    const OJson j = OJson::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return false;
    const auto it = j.find("format");
    return it != j.end() && it->is_string() && it->get<std::string>() == kFormatName;
}

bool isLessonFile(const std::filesystem::path& path, std::uint64_t maxBytes) {
    try {
        return isLessonText(scene::readTextFile(path, maxBytes));
    } catch (const scene::SceneError&) {
        return false;
    }
}

} // namespace orca::lesson
