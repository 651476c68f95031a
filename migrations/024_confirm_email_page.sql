-- 024_confirm_email_page.sql: the confirmation mail links to the page
-- /confirm-email?token=… (a link a person opens is a page, not the API),
-- so the outbox's copy must lose that token too once sent, as it loses
-- the /v1/email-confirmations and /sign-in ones (011, 016).
CREATE OR REPLACE FUNCTION sign_in_mail_forget_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IN ('sent', 'dead') THEN
        NEW.body := regexp_replace(
            regexp_replace(NEW.body, '/sign-in/[A-Za-z0-9_-]+',
                           '/sign-in/(removed once sent)', 'g'),
            '/(email-confirmations|confirm-email)[?]token=[A-Za-z0-9_-]+',
            '/\1?token=(removed once sent)', 'g');
    END IF;
    RETURN NEW;
END
$$;
