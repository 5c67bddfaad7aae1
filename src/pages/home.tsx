export function HomePage() {
  return <h1>Folio</h1>;
}
