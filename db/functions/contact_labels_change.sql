-- A contact's label change (spec 4.3 add, 4.4 remove), called as ONE statement by
-- lib/contacts/repo.ts changeLabelsOfContact. Not a trigger function: the label endpoints' hot
-- path (label add+remove round trips) in one round trip instead of three (BEGIN, the
-- lock with the change, COMMIT), since the web process's share of each round trip is the limit.
--
-- Why a function and not one plain statement: the cap of 5 labels must hold when two requests
-- change one contact at once. The contact's row is locked first; the change then runs as a
-- second statement, which in a VOLATILE function under READ COMMITTED takes a fresh snapshot, so
-- it sees every change committed before the lock was granted. One statement with the lock in a
-- CTE would still read the assignments of its own, older snapshot.
--
-- Checks that every id is the team's label, counts what the contact would hold (`add`: ids not
-- yet assigned, counted as given) or that every id is assigned (`remove`), and only when those
-- figures allow it writes the change and its `contact.labels` event with the labels the contact
-- holds afterwards. A contact that is not the team's locks nothing and finds nothing to write.
-- The labels it returns and those of the event are the same records, in the API's snake_case
-- (lib/labels/schemas.ts labelSchema, lib/events/catalogue.ts contactLabelsEvent).
CREATE OR REPLACE FUNCTION contact_labels_change(p_team integer, p_contact integer, p_ids bigint[], p_mode text, p_max integer)
RETURNS TABLE (contact_found boolean, labels_found boolean, count_after_add integer, all_assigned boolean, changed boolean, labels json)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM 1 FROM contacts c WHERE c.team_id = p_team AND c.id = p_contact FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, false, 0, false, false, '[]'::json;
    RETURN;
  END IF;
  RETURN QUERY
    WITH want AS (
      SELECT unnest(p_ids) AS label_id
    ), found AS (
      SELECT l.id FROM labels l WHERE l.team_id = p_team AND l.id IN (SELECT w.label_id FROM want w) FOR KEY SHARE
    ), assigned AS (
      SELECT cl.label_id FROM contact_labels cl WHERE cl.team_id = p_team AND cl.contact_id = p_contact
    ), verdict AS (
      SELECT NOT EXISTS (SELECT 1 FROM want w WHERE w.label_id NOT IN (SELECT f.id FROM found f)) AS labels_found,
        ((SELECT count(*) FROM assigned) + (SELECT count(*) FROM want w WHERE w.label_id NOT IN (SELECT a.label_id FROM assigned a)))::integer AS count_after_add,
        NOT EXISTS (SELECT 1 FROM want w WHERE w.label_id NOT IN (SELECT a.label_id FROM assigned a)) AS all_assigned
    ), allowed AS (
      SELECT 1 FROM verdict v WHERE v.labels_found
        AND CASE WHEN p_mode = 'add' THEN v.count_after_add <= p_max ELSE v.all_assigned END
    ), added AS (
      INSERT INTO contact_labels (team_id, contact_id, label_id)
      SELECT p_team, p_contact, f.id FROM found f WHERE p_mode = 'add' AND EXISTS (SELECT 1 FROM allowed)
      ON CONFLICT DO NOTHING
      RETURNING contact_labels.label_id
    ), removed AS (
      DELETE FROM contact_labels cl
      WHERE p_mode = 'remove' AND EXISTS (SELECT 1 FROM allowed)
        AND cl.team_id = p_team AND cl.contact_id = p_contact AND cl.label_id IN (SELECT w.label_id FROM want w)
      RETURNING cl.label_id
    ), after AS (
      SELECT l.id, l.title, l.description, l.bg_color, l.text_color FROM labels l
      WHERE l.team_id = p_team
        AND l.id IN (SELECT a.label_id FROM assigned a UNION SELECT ad.label_id FROM added ad EXCEPT SELECT r.label_id FROM removed r)
    ), event AS (
      INSERT INTO events (team_id, type, contact_id, data)
      SELECT p_team, 'contact.labels', p_contact, jsonb_build_object('contact_id', p_contact, 'labels',
        (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'title', a.title, 'description', a.description,
          'bg_color', a.bg_color, 'text_color', a.text_color) ORDER BY a.id), '[]'::jsonb) FROM after a))
      FROM allowed
    )
    SELECT true, v.labels_found, v.count_after_add, v.all_assigned,
      EXISTS (SELECT 1 FROM allowed),
      (SELECT coalesce(json_agg(json_build_object('id', a.id, 'title', a.title, 'description', a.description,
        'bg_color', a.bg_color, 'text_color', a.text_color) ORDER BY a.id), '[]'::json) FROM after a)
    FROM verdict v;
END $$;
