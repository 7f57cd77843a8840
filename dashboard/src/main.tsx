import { render } from 'preact';
import { App } from './app';
import './styles.css';

// The dashboard's entry: one page, every view chosen by the URL's hash (router.ts).
render(<App />, document.getElementById('app')!);
