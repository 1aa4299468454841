// Trajectory CSV reader (trajectory_csv.hpp): rows of step,agent,x,y,vx,vy[,pvx,pvy] into the
// frames of a Recording.
#include "orca/scene/trajectory_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace orca::scene {

namespace {

/// Significant digits of a number's text (leading zeros not counted).
int significantDigits(std::string_view text) {
    int digits = 0;
    for (const char c : text) {
        if (c == 'e' || c == 'E') break;
        if (c >= '1' && c <= '9')
            ++digits;
        else if (c == '0' && digits > 0)
            ++digits;
    }
    return digits;
}

/// Reads the fields of one line, with their columns, for the messages.
class Row {
  public:
    Row(std::string_view line, const std::string& file, int lineNo)
        : m_line(line), m_file(file), m_lineNo(lineNo) {}

    [[noreturn]] void fail(std::size_t at, const std::string& message) const {
        throw SceneError(m_file, "", m_lineNo, static_cast<int>(at) + 1, message);
    }
    /// The next field's text, and where it starts.
    std::string_view field(const char* what) {
        if (m_pos > m_line.size()) fail(m_line.size(), std::string("expected ") + what);
        const std::size_t start = m_pos;
        std::size_t end = m_line.find(',', start);
        if (end == std::string_view::npos) end = m_line.size();
        m_start = start;
        m_pos = end + 1;
        return m_line.substr(start, end - start);
    }
    std::uint64_t integer(const char* what) {
        const std::string_view f = field(what);
        std::uint64_t v = 0;
        const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
        if (f.empty() || ec != std::errc() || ptr != f.data() + f.size())
            fail(m_start, std::string("expected ") + what + " (a whole number >= 0), found \"" +
                              std::string(f.substr(0, 40)) + '"');
        return v;
    }
    double number(const char* what) {
        const std::string_view f = field(what);
        double v = 0.0;
        const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
        if (f.empty() || ec != std::errc() || ptr != f.data() + f.size())
            fail(m_start, std::string("expected ") + what + " (a number), found \"" +
                              std::string(f.substr(0, 40)) + '"');
        if (!std::isfinite(v)) fail(m_start, std::string(what) + " is not finite");
        // The float the text names, kept in case every number of the file turns out to be a
        // float's: one written with at most 9 significant digits (which name one float
        // exactly), or a float's exact value in full (a float32 recording's CSV). (Parsed as a
        // float, not rounded from the double: g++ 12 -O3 -fno-trapping-math folded that
        // rounding away.)
        float single = 0.0F;
        const bool parsed =
            std::from_chars(f.data(), f.data() + f.size(), single).ec == std::errc();
        m_allFloat =
            m_allFloat && parsed && (significantDigits(f) <= 9 || static_cast<double>(single) == v);
        m_floats.push_back(single);
        return v;
    }
    void end() const {
        if (m_pos <= m_line.size())
            fail(m_pos - 1, "expected the end of the row (too many columns)");
    }
    [[nodiscard]] std::size_t start() const { return m_start; }
    /// Every number read so far is a float's (see number()).
    [[nodiscard]] bool allFloat() const { return m_allFloat; }
    /// The numbers read so far, each as the float its text names.
    [[nodiscard]] const std::vector<float>& floats() const { return m_floats; }

  private:
    std::string_view m_line;
    const std::string& m_file;
    int m_lineNo;
    std::size_t m_pos = 0;
    std::size_t m_start = 0;
    bool m_allFloat = true;
    std::vector<float> m_floats;
};

} // namespace

Recording parseTrajectoryCsv(std::string_view text, const std::string& fileName) {
    Recording rec;
    std::size_t pos = 0;
    int lineNo = 0;
    auto nextLine = [&](std::string_view& line) {
        if (pos >= text.size()) return false;
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = end + 1;
        ++lineNo;
        return true;
    };
    std::string_view line;
    if (!nextLine(line))
        throw SceneError(fileName, "", 1, 1,
                         "empty file: expected the header step,agent,x,y,vx,vy[,pvx,pvy]");
    bool withPref = false;
    if (line == "step,agent,x,y,vx,vy,pvx,pvy")
        withPref = true;
    else if (line != "step,agent,x,y,vx,vy")
        throw SceneError(fileName, "", 1, 1,
                         "expected the header step,agent,x,y,vx,vy (optionally followed by "
                         ",pvx,pvy), found \"" +
                             std::string(line.substr(0, 60)) + '"');

    std::size_t agents = 0;     // per frame, from the first one
    bool floatDigits = true;    // every number is a float's (Row::number)
    std::vector<float> singles; // the numbers as floats, row by row (while floatDigits)
    while (nextLine(line)) {
        if (line.empty()) {
            // Only blank lines may follow a blank line (the end of the file).
            std::string_view rest;
            while (nextLine(rest))
                if (!rest.empty())
                    throw SceneError(fileName, "", lineNo, 1, "a row after a blank line");
            break;
        }
        Row row(line, fileName, lineNo);
        const std::uint64_t step = row.integer("the step");
        const std::uint64_t agent = row.integer("the agent index");
        const std::size_t agentColumn = row.start();
        const double x = row.number("x");
        const double y = row.number("y");
        const double vx = row.number("vx");
        const double vy = row.number("vy");
        Vec2 pref{0.0};
        if (withPref) {
            pref.x = row.number("pvx");
            pref.y = row.number("pvy");
        }
        row.end();
        const bool startsFrame = agent == 0;
        if (startsFrame) {
            if (!rec.frames.empty()) {
                const RecordingFrame& last = rec.frames.back();
                if (agents == 0) agents = last.position.size();
                if (last.position.size() != agents)
                    throw SceneError(fileName, "", lineNo, 1,
                                     "step " + std::to_string(last.step) + " has " +
                                         std::to_string(last.position.size()) +
                                         " agents, the first step had " + std::to_string(agents) +
                                         " (a trajectory keeps one set of agents)");
                if (step < last.step)
                    throw SceneError(fileName, "", lineNo, 1,
                                     "step " + std::to_string(step) + " after step " +
                                         std::to_string(last.step) + " (steps must not decrease)");
            }
            RecordingFrame& f = rec.frames.emplace_back();
            f.step = step;
        } else {
            if (rec.frames.empty())
                row.fail(agentColumn,
                         "expected agent 0 first, found agent " + std::to_string(agent));
            RecordingFrame& f = rec.frames.back();
            if (step != f.step)
                row.fail(0, "expected step " + std::to_string(f.step) + " (agent " +
                                std::to_string(agent) + " of its state), found step " +
                                std::to_string(step) + " (a new step starts with agent 0)");
            if (agent != f.position.size())
                row.fail(agentColumn, "expected agent " + std::to_string(f.position.size()) +
                                          ", found agent " + std::to_string(agent) +
                                          " (agents 0..n-1 in order within a step)");
        }
        floatDigits = floatDigits && row.allFloat();
        if (floatDigits) singles.insert(singles.end(), row.floats().begin(), row.floats().end());
        RecordingFrame& f = rec.frames.back();
        f.position.push_back({x, y});
        f.velocity.push_back({vx, vy});
        if (withPref) f.prefVelocity.push_back(pref);
    }
    if (rec.frames.empty())
        throw SceneError(fileName, "", lineNo + 1, 1, "no rows after the header");
    if (agents == 0) agents = rec.frames.front().position.size();
    if (rec.frames.back().position.size() != agents)
        throw SceneError(fileName, "", lineNo, 1,
                         "the last step (" + std::to_string(rec.frames.back().step) + ") has " +
                             std::to_string(rec.frames.back().position.size()) +
                             " agents, the first step had " + std::to_string(agents) +
                             " (the file may be cut short)");
    // Every number a float's: a program that holds its state in float wrote them (RVO2 does);
    // each stands for exactly one float, the one the program had.
    rec.encoding = floatDigits ? RecordingEncoding::Float32 : RecordingEncoding::Float64;
    if (floatDigits) {
        std::size_t k = 0;
        for (RecordingFrame& f : rec.frames)
            for (std::size_t i = 0; i < f.position.size(); ++i) {
                f.position[i] = {singles[k], singles[k + 1]};
                f.velocity[i] = {singles[k + 2], singles[k + 3]};
                k += 4;
                if (withPref) {
                    f.prefVelocity[i] = {singles[k], singles[k + 1]};
                    k += 2;
                }
            }
    }
    return rec;
}

Recording loadTrajectoryCsv(const std::filesystem::path& path, std::uint64_t maxBytes,
                            const std::string& maxBytesSetting) {
    const std::string text = readTextFile(path, maxBytes, maxBytesSetting);
    return parseTrajectoryCsv(text, path.string());
}

} // namespace orca::scene
