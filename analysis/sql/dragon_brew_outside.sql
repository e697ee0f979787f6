-- Purpose (Dragon Brew): races played outside the player counts the rulebook's overview table
--          recommends for them (players.outside_recommended = 1), with their win rate against
--          the fair share 1 / n_players, by player count.
-- Parameters: none.
-- Reads views: games (n_players), players (faction, win, outside_recommended).
-- Returns: n_players, faction, games, wins, rate, fair_share.
SELECT
    g.n_players::BIGINT              AS n_players,
    p.faction::VARCHAR               AS faction,
    count(*)::BIGINT                 AS games,
    sum(p.win)::DOUBLE               AS wins,
    sum(p.win) / count(*)            AS rate,
    1.0 / g.n_players                AS fair_share
FROM players AS p
JOIN games AS g USING (game_id)
WHERE p.outside_recommended = 1
GROUP BY g.n_players, p.faction
ORDER BY g.n_players, p.faction;
