-- Purpose: how often the leader after round r (the one player with the top score; rounds
--          with a shared top score are left out) wins the game, for every round before the
--          game's last, by player count. Wins are fractional (1/k for a shared victory).
-- Parameters: none.
-- Reads views: standings (round_standings.sql).
-- Returns: n_players, round, games, wins, rate.
SELECT
    n_players::BIGINT        AS n_players,
    round::BIGINT            AS round,
    count(*)::BIGINT         AS games,
    sum(win)::DOUBLE         AS wins,
    sum(win) / count(*)      AS rate
FROM standings
WHERE round < last_round
  AND unique_lead
  AND seat = leader
GROUP BY n_players, round
ORDER BY n_players, round;
