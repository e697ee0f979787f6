-- Purpose: how games end (count of each end_reason) by player count, with its share.
-- Parameters: none.
-- Reads views: games.
-- Returns: n_players, end_reason, games, share.
WITH counted AS (
    SELECT
        n_players,
        end_reason,
        count(*) AS games
    FROM games
    GROUP BY n_players, end_reason
)
SELECT
    n_players::BIGINT                                         AS n_players,
    end_reason,
    games::BIGINT                                             AS games,
    games / sum(games) OVER (PARTITION BY n_players)          AS share
FROM counted
ORDER BY n_players, games DESC, end_reason;
