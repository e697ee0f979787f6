-- Purpose (Dwarfest): how often a brawl breaks out, per player-evening, by player count.
--          A player-evening is one player's tavern during one evening (round); a brawl
--          breaks out at most once per tavern per evening, so the rate is a proportion.
-- Parameters: none.
-- Reads views: games (rounds, brawls), players (brawls_broken).
-- Returns: n_players, games, player_evenings, brawls, rate, brawls_per_game.
WITH per_game AS (
    SELECT
        g.game_id,
        g.n_players,
        g.rounds,
        g.brawls,
        sum(p.brawls_broken) AS player_brawls
    FROM games AS g
    JOIN players AS p USING (game_id)
    GROUP BY g.game_id, g.n_players, g.rounds, g.brawls
)
SELECT
    n_players::BIGINT                                  AS n_players,
    count(*)::BIGINT                                   AS games,
    sum(n_players * rounds)::BIGINT                    AS player_evenings,
    sum(player_brawls)::BIGINT                         AS brawls,
    sum(player_brawls) / sum(n_players * rounds)       AS rate,
    avg(brawls::DOUBLE)                                AS brawls_per_game
FROM per_game
GROUP BY n_players
ORDER BY n_players;
