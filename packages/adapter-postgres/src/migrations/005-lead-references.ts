/**
 * A lead's opportunity and first-message record point back at their lead event. (The lead event's
 * own contact_id / opportunity_id stay unconstrained: intake writes the lead before its
 * opportunity, inside one transaction, and the contract lets a lead name them freely.)
 */
export const migration005 = (s: string): string[] => [
  `ALTER TABLE ${s}.opportunities ADD CONSTRAINT opportunities_lead_event_fk
     FOREIGN KEY (lead_event_id) REFERENCES ${s}.lead_events(id) ON DELETE CASCADE`,
  `ALTER TABLE ${s}.outbound_messages ADD CONSTRAINT outbound_messages_lead_event_fk
     FOREIGN KEY (lead_event_id) REFERENCES ${s}.lead_events(id) ON DELETE CASCADE`,
];
