"""Reads score lines ("name: points"), skips the malformed ones, and names the best
player.

Known bug (on purpose): best_player() looks the winner's points up under the
upper-cased name, so the lookup raises KeyError and the program ends with an
uncaught exception (exit code 1, the traceback on stderr). Along the way,
parse_line() raises ValueError for the malformed line, which read_scores()
catches and counts as skipped, as intended.
"""

LINES = ["ada: 31", "bob: x", "cy: 27"]


def parse_line(line):
    name, points = line.split(":")
    return name.strip(), int(points)  # ValueError for "bob: x"


def read_scores(lines):
    scores = {}
    skipped = 0
    for line in lines:
        try:
            name, points = parse_line(line)
        except ValueError:
            skipped += 1
            continue
        scores[name] = points
    return scores, skipped


def best_player(scores):
    best = max(scores.values())
    winner = [name for name, points in scores.items() if points == best][0]
    return winner, scores[winner.upper()]  # BUG: KeyError 'ADA'


def main():
    scores, skipped = read_scores(LINES)
    print("read %d scores, skipped %d" % (len(scores), skipped))
    winner, points = best_player(scores)
    print("best: %s with %d" % (winner, points))


if __name__ == "__main__":
    main()
