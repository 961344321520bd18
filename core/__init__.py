"""What every app uses and no app owns: names (how they are checked, kept, sorted and
searched), CSV files read and written, rate limits on creating things, versions that pages key
on, and what views ask of a request. It imports no other app of the site."""
