package sqlite

// The types of sites and their structure, shared by store/sites.go (sites) and
// store/sitestructure.go (site spaces, sections, section groups).
