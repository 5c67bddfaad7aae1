import { Component, type ReactNode } from 'react';
import { RouteErrorPage } from '../pages/not-found.tsx';

/** A page that throws shows an apology with a way home instead of a blank screen. */
export class RouteErrorBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { failed: boolean; key: string }
> {
  override state = { failed: false, key: this.props.resetKey };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: { failed: boolean; key: string }) {
    // Navigating elsewhere clears the error.
    return props.resetKey !== state.key ? { failed: false, key: props.resetKey } : null;
  }
  override render() {
    return this.state.failed ? <RouteErrorPage /> : this.props.children;
  }
}
