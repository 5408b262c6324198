-- Leave room on each page so a heartbeat's update of an activation stays on its page (HOT update, no index writes).
ALTER TABLE "activations" SET (fillfactor = 80);
