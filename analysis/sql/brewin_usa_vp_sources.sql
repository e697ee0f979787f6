-- Purpose (Brewin' USA): where Victory Points come from (cities, regions, launched beers,
--          caps in the bank), for winners and for the other players, by player count.
-- Parameters: none.
-- Reads views: games, players (vp_cities, vp_regions, vp_beers, vp_bank, cities_controlled).
-- Returns: n_players, winner, players, vp_cities, vp_regions, vp_beers, vp_bank, score,
--          cities_controlled, beers_launched.
SELECT
    g.n_players::BIGINT                   AS n_players,
    (p.win > 0)                           AS winner,
    count(*)::BIGINT                      AS players,
    avg(p.vp_cities::DOUBLE)              AS vp_cities,
    avg(p.vp_regions::DOUBLE)             AS vp_regions,
    avg(p.vp_beers::DOUBLE)               AS vp_beers,
    avg(p.vp_bank::DOUBLE)                AS vp_bank,
    avg(p.score::DOUBLE)                  AS score,
    avg(p.cities_controlled::DOUBLE)      AS cities_controlled,
    avg(p.beers_launched::DOUBLE)         AS beers_launched
FROM players AS p
JOIN games AS g USING (game_id)
GROUP BY g.n_players, (p.win > 0)
ORDER BY n_players, winner DESC;
