-- Purpose: game length by player count, in rounds and in bot decisions.
-- Parameters: none.
-- Reads views: games.
-- Returns: n_players, games, mean_rounds, sd_rounds, min_rounds, max_rounds,
--          mean_decisions, sd_decisions, min_decisions, median_decisions, max_decisions.
WITH lengths AS (
    SELECT
        n_players,
        rounds::DOUBLE     AS rounds,
        decisions::DOUBLE  AS decisions
    FROM games
)
SELECT
    n_players::BIGINT                   AS n_players,
    count(*)::BIGINT                    AS games,
    avg(rounds)                         AS mean_rounds,
    stddev_samp(rounds)                 AS sd_rounds,
    min(rounds)                         AS min_rounds,
    max(rounds)                         AS max_rounds,
    avg(decisions)                      AS mean_decisions,
    stddev_samp(decisions)              AS sd_decisions,
    min(decisions)                      AS min_decisions,
    quantile_cont(decisions, 0.5)       AS median_decisions,
    max(decisions)                      AS max_decisions
FROM lengths
GROUP BY n_players
ORDER BY n_players;
