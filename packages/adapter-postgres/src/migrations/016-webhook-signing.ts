/**
 * Webhook signing schemes and rolling secret rotation. Existing subscriptions keep Vitrina's scheme
 * (the column default, a constant, so adding it rewrites nothing); a rotation's replaced secret
 * stays sealed like the current one.
 */
export const migration016 = (s: string): string[] => [
  `ALTER TABLE ${s}.webhook_subscriptions
     ADD COLUMN signature_scheme text NOT NULL DEFAULT 'vitrina' CHECK (signature_scheme IN ('vitrina', 'standard-webhooks')),
     ADD COLUMN previous_sealed_secret text,
     ADD COLUMN previous_secret_expires_at timestamptz`,
];
