package server

// AuditActionOf is the action an operation's writes record, and whether they record one.
func AuditActionOf(op string) (string, bool) {
	a, ok := auditActions[op]
	return a.ID, ok
}

// AuditSkipped tells whether an operation is listed as changing nothing anyone audits.
func AuditSkipped(op string) bool { return notAudited[op] }

// AuditCreatedKind is the kind of what an operation makes, named as its event's target ("": it
// makes nothing).
func AuditCreatedKind(op string) string { return auditCreates[op] }
