-- Purpose: win rate of each faction by player count, with wins / expected wins.
--          Expected wins of a faction = sum over its games of 1 / n_players (its fair share);
--          a ratio of 1 is fair, above 1 is strong. Wins are fractional (1/k for ties).
-- Parameters: $none_label - the faction label symmetric games use (normally 'none');
--             those rows are left out.
--          `games` counts SEATS (player-games): a game fielding two copies of a faction
--          counts twice, and the rate is per seat. `games_with` counts the games that
--          field the faction at least once (to turn seats into games).
-- Reads views: games, players.
-- Returns: n_players, faction, games (seats), games_with, wins, expected, win_ratio, rate.
WITH seated AS (
    SELECT
        g.n_players,
        p.faction,
        p.game_id,
        p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.faction <> $none_label
)
SELECT
    n_players::BIGINT                      AS n_players,
    faction,
    count(*)::BIGINT                       AS games,
    count(DISTINCT game_id)::BIGINT        AS games_with,
    sum(win)::DOUBLE                       AS wins,
    sum(1.0 / n_players)::DOUBLE           AS expected,
    sum(win) / sum(1.0 / n_players)        AS win_ratio,
    sum(win) / count(*)                    AS rate
FROM seated
GROUP BY n_players, faction
ORDER BY n_players, faction;
