-- Purpose: faction x seat table: each faction's wins and expected wins (sum of 1/n, its fair
--          share) in each seat, by player count. Wins are fractional (1/k for a k-way tie).
-- Parameters: $none_label - the faction label of symmetric games; those rows are left out.
-- Reads views: games, players.
-- Returns: n_players, faction, seat, games, wins, expected, win_ratio, rate.
WITH seated AS (
    SELECT
        g.n_players,
        p.faction,
        p.seat,
        p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.faction <> $none_label
)
SELECT
    n_players::BIGINT                  AS n_players,
    faction,
    seat::BIGINT                       AS seat,
    count(*)::BIGINT                   AS games,
    sum(win)::DOUBLE                   AS wins,
    sum(1.0 / n_players)::DOUBLE       AS expected,
    sum(win) / sum(1.0 / n_players)    AS win_ratio,
    sum(win) / count(*)                AS rate
FROM seated
GROUP BY n_players, faction, seat
ORDER BY n_players, faction, seat;
