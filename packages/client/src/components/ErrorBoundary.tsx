import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPanel } from './ErrorPanel';

interface Props {
  readonly children: ReactNode;
  /** Changing it clears a caught error: the route's location, say. */
  readonly resetKey?: unknown;
  /** What to show instead of the error panel with its retry. */
  readonly fallback?: (error: unknown) => ReactNode;
}

/** Catches a render failure of a screen and shows it in place: never a blank page. */
export class ErrorBoundary extends Component<Props, { error: unknown; key: unknown }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; key: unknown }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error !== null) {
      if (this.props.fallback !== undefined) return this.props.fallback(this.state.error);
      return (
        <ErrorPanel error={this.state.error} alwaysRetry onRetry={() => this.setState({ error: null })} />
      );
    }
    return this.props.children;
  }
}
