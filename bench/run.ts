/** npm run bench: prints figures; each tool area adds its own section module here. */
console.log('Folio bench: no sections yet');
